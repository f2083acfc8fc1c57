/**
 * modelgate/testing: a mock ModelGate gateway for tests, examples and offline development.
 * @module
 */
export { createMockGateway, MOCK_API_KEY } from "./gateway.ts";
export type { MockGateway, MockGatewayOptions, MockRequestRecord } from "./gateway.ts";
export type { MockFault } from "./faults.ts";
export { DEFAULT_CATALOGUE, type MockModel } from "./catalogue.ts";
export { chooseModel, type RouteResult } from "./routing.ts";
