import type { ChatCompletionCreateParamsBase } from "../types/index.ts";
import { InvalidRequest } from "./errors.ts";

const ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);
const PART_TYPES = new Set(["text", "image_url", "input_audio"]);

/**
 * Checks a chat request body the way the gateway would, naming the offending field, so that
 * tests of the SDK (and of apps) see realistic 400s. Unknown extra fields are ignored.
 */
export function validateChatRequest(body: unknown): ChatCompletionCreateParamsBase {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new InvalidRequest("The request body must be a JSON object.", null);
  }
  const params = body as Record<string, unknown>;
  if (typeof params.model !== "string" || params.model === "") {
    throw new InvalidRequest("`model` is required and must be a non-empty string.", "model");
  }
  if (!Array.isArray(params.messages)) throw new InvalidRequest("`messages` must be an array.", "messages");
  if (params.messages.length === 0) throw new InvalidRequest("`messages` must contain at least one message.", "messages");
  params.messages.forEach((message, index) => validateMessage(message, `messages[${index}]`));
  if (params.stream !== undefined && params.stream !== null && typeof params.stream !== "boolean") {
    throw new InvalidRequest("`stream` must be a boolean.", "stream");
  }
  const { temperature, n, tools, models } = params;
  if (temperature !== undefined && temperature !== null && (typeof temperature !== "number" || temperature < 0 || temperature > 2)) {
    throw new InvalidRequest("`temperature` must be a number from 0 to 2.", "temperature");
  }
  if (n !== undefined && n !== null && !(Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 8)) {
    throw new InvalidRequest("`n` must be a whole number from 1 to 8.", "n");
  }
  if (tools !== undefined && tools !== null) {
    if (!Array.isArray(tools)) throw new InvalidRequest("`tools` must be an array.", "tools");
    tools.forEach((tool, index) => {
      const name = (tool as { function?: { name?: unknown } } | null)?.function?.name;
      if (typeof name !== "string" || name === "") {
        throw new InvalidRequest("Each tool needs `function.name`.", `tools[${index}].function.name`);
      }
    });
  }
  if (models !== undefined && (!Array.isArray(models) || models.some((id) => typeof id !== "string"))) {
    throw new InvalidRequest("`models` must be an array of model ids.", "models");
  }
  return params as unknown as ChatCompletionCreateParamsBase;
}

function validateMessage(message: unknown, path: string): void {
  if (typeof message !== "object" || message === null) throw new InvalidRequest(`\`${path}\` must be an object.`, path);
  const { role, content } = message as { role?: unknown; content?: unknown };
  if (typeof role !== "string" || !ROLES.has(role)) {
    throw new InvalidRequest(`\`${path}.role\` must be one of ${[...ROLES].join(", ")}.`, `${path}.role`);
  }
  if (content === undefined || content === null) {
    if (role === "assistant") return;
    throw new InvalidRequest(`\`${path}.content\` is required.`, `${path}.content`);
  }
  if (typeof content === "string") return;
  if (!Array.isArray(content)) {
    throw new InvalidRequest(`\`${path}.content\` must be a string or an array of parts.`, `${path}.content`);
  }
  content.forEach((part, index) => {
    const type = (part as { type?: unknown } | null)?.type;
    if (typeof type !== "string" || !PART_TYPES.has(type)) {
      throw new InvalidRequest(`\`${path}.content[${index}].type\` must be text, image_url or input_audio.`, `${path}.content[${index}].type`);
    }
  });
}
