/**
 * modelgate/testing: a mock ModelGate gateway for tests, examples and offline development.
 * The Node HTTP adapter lives in its own entry, `modelgate/testing/node`, so this one runs
 * on every Fetch-API runtime.
 * @module
 */
export { createMockGateway, MOCK_API_KEY } from "./gateway.ts";
export type { MockGateway, MockGatewayOptions, MockRequestRecord } from "./gateway-types.ts";
export type { MockFault } from "./http/faults.ts";
export type { MockReply } from "./chat/replies.ts";
export { DEFAULT_CATALOGUE, type MockModel } from "./catalogue/models.ts";
export { chooseModel, type RouteResult } from "./chat/routing.ts";
