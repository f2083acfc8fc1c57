/** The SDK version, sent in `User-Agent` (in browsers, which keep their own, in `X-ModelGate-SDK`). Kept equal to package.json by a test. */
export const VERSION = "0.1.0";
