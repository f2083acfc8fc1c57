import type { ChatCompletionCreateParamsBase } from "../../types/index.ts";
import { CHAT_ROLES } from "../../types/chat-params.ts";
import { isRecord } from "../../internal/values.ts";
import { RequestRejected } from "../http/error-response.ts";
import { checkLegacyFunctions, checkLegacyMessage } from "./legacy-functions.ts";

const ROLES: readonly string[] = CHAT_ROLES;
const PART_TYPES = ["text", "image_url", "input_audio"];
const RESPONSE_FORMATS = ["text", "json_object", "json_schema"];
const TOOL_CHOICES = ["none", "auto", "required"];
const SORTS = ["price", "quality", "latency"];
/** Reply modalities; `video` is the gateway's, beside OpenAI's three. */
const MODALITIES = ["text", "image", "audio", "video"];
const AUDIO_FORMATS = ["wav", "aac", "mp3", "flac", "opus", "pcm16"];
const EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"];
/** The largest `n` the mock serves; real providers cap it too. */
const MAX_CHOICES = 8;

/**
 * Checks a chat request body as the gateway does and returns it typed. The body is untrusted
 * JSON, so everything the mock later reads is checked here first: every refusal is a 400
 * whose message and `param` name the field (`messages[1].role`), never a crash of the mock.
 * Unknown extra fields are ignored, as gateways add their own.
 */
export function checkChatRequest(body: unknown): ChatCompletionCreateParamsBase {
  if (!isRecord(body)) throw reject(null, "The request body must be a JSON object.");
  if (typeof body.model !== "string" || body.model === "") {
    throw reject("model", "`model` is required and must be a non-empty string.");
  }
  if (present(body.models) && !(Array.isArray(body.models) && body.models.every((id) => typeof id === "string"))) {
    throw reject("models", "`models` must be an array of model ids.");
  }
  if (!Array.isArray(body.messages)) throw reject("messages", "`messages` is required and must be an array.");
  if (body.messages.length === 0) throw reject("messages", "`messages` must contain at least one message.");
  body.messages.forEach((message, index) => checkMessage(message, `messages[${index}]`));

  if (present(body.stream) && typeof body.stream !== "boolean") throw reject("stream", "`stream` must be a boolean.");
  if (present(body.stream_options)) {
    if (!isRecord(body.stream_options)) throw reject("stream_options", "`stream_options` must be an object.");
    const { include_usage } = body.stream_options;
    if (present(include_usage) && typeof include_usage !== "boolean") {
      throw reject("stream_options.include_usage", "`stream_options.include_usage` must be a boolean.");
    }
  }
  checkNumber(body, "temperature", 0, 2);
  checkNumber(body, "top_p", 0, 1);
  if (present(body.n) && !(Number.isInteger(body.n) && (body.n as number) >= 1 && (body.n as number) <= MAX_CHOICES)) {
    throw reject("n", `\`n\` must be a whole number from 1 to ${MAX_CHOICES}.`);
  }
  for (const field of ["max_tokens", "max_completion_tokens"]) {
    const value = body[field];
    if (present(value) && !(Number.isInteger(value) && (value as number) >= 1)) {
      throw reject(field, `\`${field}\` must be a positive whole number.`);
    }
  }
  const toolNames = checkTools(body.tools);
  checkLegacyFunctions(body);
  if (present(body.parallel_tool_calls) && typeof body.parallel_tool_calls !== "boolean") {
    throw reject("parallel_tool_calls", "`parallel_tool_calls` must be a boolean.");
  }
  checkToolChoice(body.tool_choice, toolNames);
  if (present(body.response_format)) {
    const type = isRecord(body.response_format) ? body.response_format.type : undefined;
    if (typeof type !== "string" || !RESPONSE_FORMATS.includes(type)) {
      throw reject("response_format.type", `\`response_format.type\` must be one of ${RESPONSE_FORMATS.join(", ")}.`);
    }
    if (type === "json_schema") checkJSONSchemaFormat((body.response_format as Record<string, unknown>).json_schema);
  }
  if (present(body.route)) checkRoute(body.route);
  checkOutputs(body);
  return body as unknown as ChatCompletionCreateParamsBase;
}

/** Fields sent as `null` are treated as left out, as OpenAI-compatible servers do. */
function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function reject(param: string | null, message: string): RequestRejected {
  return new RequestRejected(message, param);
}

function checkNumber(body: Record<string, unknown>, field: string, min: number, max: number): void {
  const value = body[field];
  if (!present(value)) return;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) {
    throw reject(field, `\`${field}\` must be a number from ${min} to ${max}.`);
  }
}

function checkMessage(message: unknown, path: string): void {
  if (!isRecord(message)) throw reject(path, `\`${path}\` must be an object.`);
  const { role, content } = message;
  if (typeof role !== "string" || !ROLES.includes(role)) {
    throw reject(`${path}.role`, `\`${path}.role\` must be one of ${ROLES.join(", ")}.`);
  }
  if (role === "tool" && typeof message.tool_call_id !== "string") {
    throw reject(`${path}.tool_call_id`, `\`${path}.tool_call_id\` is required in a tool message.`);
  }
  if (role === "assistant" && present(message.tool_calls)) checkToolCalls(message.tool_calls, `${path}.tool_calls`);
  checkLegacyMessage(message, path);
  if (!present(content)) {
    // An assistant turn that only called tools has no content; a function's result may be null.
    if (role === "assistant" || role === "function") return;
    throw reject(`${path}.content`, `\`${path}.content\` is required.`);
  }
  if (typeof content === "string") return;
  if (!Array.isArray(content)) throw reject(`${path}.content`, `\`${path}.content\` must be a string or an array of parts.`);
  content.forEach((part, index) => checkPart(part, `${path}.content[${index}]`, role));
}

function checkPart(part: unknown, path: string, role: string): void {
  const type = isRecord(part) ? part.type : undefined;
  if (typeof type !== "string" || !PART_TYPES.includes(type)) {
    throw reject(`${path}.type`, `\`${path}.type\` must be one of ${PART_TYPES.join(", ")}.`);
  }
  const fields = part as Record<string, unknown>;
  if (type === "text" && typeof fields.text !== "string") throw reject(`${path}.text`, `\`${path}.text\` must be a string.`);
  if (type !== "text" && role !== "user") {
    throw reject(`${path}.type`, `\`${path}.type\` ${type} is only allowed in user messages.`);
  }
  if (type === "image_url" && !(isRecord(fields.image_url) && typeof fields.image_url.url === "string")) {
    throw reject(`${path}.image_url.url`, `\`${path}.image_url.url\` must be a string (an https or data: URL).`);
  }
  if (type === "input_audio" && !(isRecord(fields.input_audio) && typeof fields.input_audio.data === "string")) {
    throw reject(`${path}.input_audio.data`, `\`${path}.input_audio.data\` must be a base64 string.`);
  }
}

function checkToolCalls(calls: unknown, path: string): void {
  if (!Array.isArray(calls)) throw reject(path, `\`${path}\` must be an array.`);
  calls.forEach((call, index) => {
    const fn = isRecord(call) ? call.function : undefined;
    if (!isRecord(fn) || typeof fn.name !== "string" || typeof fn.arguments !== "string") {
      throw reject(`${path}[${index}].function`, `\`${path}[${index}].function\` needs a string \`name\` and \`arguments\`.`);
    }
  });
}

/** Checks `tools` and returns the names of the functions it declares. */
function checkTools(tools: unknown): string[] {
  if (!present(tools)) return [];
  if (!Array.isArray(tools)) throw reject("tools", "`tools` must be an array.");
  return tools.map((tool, index) => {
    const path = `tools[${index}]`;
    if (!isRecord(tool) || tool.type !== "function") throw reject(`${path}.type`, `\`${path}.type\` must be "function".`);
    const fn = tool.function;
    if (!isRecord(fn) || typeof fn.name !== "string" || !/^[\w-]{1,64}$/.test(fn.name)) {
      throw reject(`${path}.function.name`, `\`${path}.function.name\` must be 1 to 64 letters, digits, _ or -.`);
    }
    if (present(fn.parameters) && !isRecord(fn.parameters)) {
      throw reject(`${path}.function.parameters`, `\`${path}.function.parameters\` must be a JSON schema object.`);
    }
    return fn.name;
  });
}

function checkToolChoice(choice: unknown, toolNames: string[]): void {
  if (!present(choice)) return;
  if (typeof choice === "string") {
    if (!TOOL_CHOICES.includes(choice)) throw reject("tool_choice", `\`tool_choice\` must be one of ${TOOL_CHOICES.join(", ")} or a named function.`);
    if (choice === "required" && toolNames.length === 0) throw reject("tool_choice", "`tool_choice` is \"required\" but no `tools` were given.");
    return;
  }
  const name = isRecord(choice) && isRecord(choice.function) ? choice.function.name : undefined;
  if (typeof name !== "string") throw reject("tool_choice.function.name", "`tool_choice.function.name` must be a string.");
  if (!toolNames.includes(name)) throw reject("tool_choice.function.name", `\`tool_choice.function.name\` is '${name}', which is not a function in \`tools\`.`);
}

/** The `json_schema` of a response format, as OpenAI checks it: the mock reads `name` and `schema`. */
function checkJSONSchemaFormat(format: unknown): void {
  const path = "response_format.json_schema";
  if (!isRecord(format)) throw reject(path, `\`${path}\` is required with type json_schema and must be an object.`);
  if (typeof format.name !== "string" || !/^[\w-]{1,64}$/.test(format.name)) {
    throw reject(`${path}.name`, `\`${path}.name\` must be 1 to 64 letters, digits, _ or -.`);
  }
  if (present(format.schema) && !isRecord(format.schema)) throw reject(`${path}.schema`, `\`${path}.schema\` must be a JSON schema object.`);
  if (present(format.strict) && typeof format.strict !== "boolean") throw reject(`${path}.strict`, `\`${path}.strict\` must be a boolean.`);
}

/** What the reply should hold besides text: `modalities` (with `audio` for speech) and reasoning. */
function checkOutputs(body: Record<string, unknown>): void {
  const { modalities, audio, reasoning } = body;
  if (present(modalities)) {
    if (!Array.isArray(modalities)) throw reject("modalities", `\`modalities\` must be an array of ${MODALITIES.join(", ")}.`);
    modalities.forEach((modality, index) => {
      if (typeof modality !== "string" || !MODALITIES.includes(modality)) {
        throw reject(`modalities[${index}]`, `\`modalities[${index}]\` must be one of ${MODALITIES.join(", ")}.`);
      }
    });
    if (modalities.includes("audio") && !present(audio)) {
      throw reject("audio", "`audio` is required with modalities audio: `{ voice, format }` of the spoken reply.");
    }
  }
  if (present(audio)) {
    if (!isRecord(audio)) throw reject("audio", "`audio` must be an object `{ voice, format }`.");
    const { voice, format } = audio;
    if (!(typeof voice === "string" || (isRecord(voice) && typeof voice.id === "string"))) {
      throw reject("audio.voice", "`audio.voice` must be a voice name, or `{ id }` of a custom voice.");
    }
    if (typeof format !== "string" || !AUDIO_FORMATS.includes(format)) throw reject("audio.format", `\`audio.format\` must be one of ${AUDIO_FORMATS.join(", ")}.`);
  }
  if (present(body.reasoning_effort) && !(typeof body.reasoning_effort === "string" && EFFORTS.includes(body.reasoning_effort))) {
    throw reject("reasoning_effort", `\`reasoning_effort\` must be one of ${EFFORTS.join(", ")}.`);
  }
  if (present(reasoning)) {
    if (!isRecord(reasoning)) throw reject("reasoning", "`reasoning` must be an object `{ effort?, max_tokens?, exclude? }`.");
    if (present(reasoning.effort) && !(typeof reasoning.effort === "string" && EFFORTS.includes(reasoning.effort))) {
      throw reject("reasoning.effort", `\`reasoning.effort\` must be one of ${EFFORTS.join(", ")}.`);
    }
    if (present(reasoning.max_tokens) && !(Number.isInteger(reasoning.max_tokens) && (reasoning.max_tokens as number) >= 0)) {
      throw reject("reasoning.max_tokens", "`reasoning.max_tokens` must be a whole number, 0 or more.");
    }
    if (present(reasoning.exclude) && typeof reasoning.exclude !== "boolean") throw reject("reasoning.exclude", "`reasoning.exclude` must be a boolean.");
  }
}

function checkRoute(route: unknown): void {
  if (!isRecord(route)) throw reject("route", "`route` must be an object.");
  if (present(route.min_quality)) {
    const value = route.min_quality;
    if (typeof value !== "number" || !(value >= 0 && value <= 1)) throw reject("route.min_quality", "`route.min_quality` must be a number from 0 to 1.");
  }
  if (present(route.max_price)) {
    if (!isRecord(route.max_price)) throw reject("route.max_price", "`route.max_price` must be an object.");
    for (const side of ["prompt", "completion"]) {
      const value = route.max_price[side];
      if (present(value) && !(typeof value === "number" && value >= 0)) {
        throw reject(`route.max_price.${side}`, `\`route.max_price.${side}\` must be a number of USD per million tokens, 0 or more.`);
      }
    }
  }
  if (present(route.max_cost) && !(typeof route.max_cost === "number" && route.max_cost >= 0 && Number.isFinite(route.max_cost))) {
    throw reject("route.max_cost", "`route.max_cost` must be a number of USD, 0 or more.");
  }
  if (present(route.capabilities) && !(Array.isArray(route.capabilities) && route.capabilities.every((item) => typeof item === "string"))) {
    throw reject("route.capabilities", "`route.capabilities` must be an array of capability names.");
  }
  if (present(route.sort) && !(typeof route.sort === "string" && SORTS.includes(route.sort))) {
    throw reject("route.sort", `\`route.sort\` must be one of ${SORTS.join(", ")}.`);
  }
}
