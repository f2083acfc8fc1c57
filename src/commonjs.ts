/**
 * The CommonJS entry (`dist/index.cjs`). `require("modelgate")` is the client class itself, as
 * openai-node users write it (`const ModelGate = require("modelgate")`), and carries every
 * named export as a property: `.ModelGate` (the same class), `.default` (so transpiled
 * `import ModelGate from "modelgate"` works with or without esModuleInterop), `.Stream`,
 * `.APIError`, ... Only a default export here, so the bundler emits `module.exports =` with no
 * mixed-exports warning. The ESM build is `index.ts` as it is.
 * @module
 */
import * as modelgate from "./index.ts";

export default Object.assign(modelgate.ModelGate, modelgate);
