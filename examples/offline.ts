/**
 * Lets every example run offline: unless MODELGATE_BASE_URL and MODELGATE_API_KEY are set,
 * requests go to the built-in mock gateway (`modelgate/testing`), installed as the global
 * `fetch`. Imported first by each example, so the example code itself is exactly what you
 * would write against a real gateway.
 */
import { createMockGateway, MOCK_API_KEY } from "modelgate/testing";

if (!process.env.MODELGATE_BASE_URL || !process.env.MODELGATE_API_KEY) {
  const gateway = createMockGateway({ chunkDelayMs: Number(process.env.MOCK_CHUNK_DELAY_MS ?? 25) });
  process.env.MODELGATE_BASE_URL = "https://mock.modelgate.invalid";
  process.env.MODELGATE_API_KEY = MOCK_API_KEY;
  globalThis.fetch = gateway;
  console.error("(offline: answering from the built-in mock gateway; set MODELGATE_BASE_URL and MODELGATE_API_KEY to use a real one)\n");
}
