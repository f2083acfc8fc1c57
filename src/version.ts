/** The SDK version, sent in the `X-ModelGate-SDK` header. Kept equal to package.json by a test. */
export const VERSION = "0.1.0";
