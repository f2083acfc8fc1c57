// `npm run build && node --import tsx bench/providers-vs-openai.mjs [--all] [--markdown]`
//
// Replays the provider corpus (test/providers/corpus.ts: recorded answers of 20 providers and
// servers) over a loopback socket through the built modelgate (dist/) and through `openai`
// (the devDependency, 6.49), doing with each what an app does, and prints, per case and
// operation, what each SDK gave where the two differ (`--all`: every row). What the user
// should get is what test/providers/*.test.ts asserts; docs/providers.md reads the table.
//
// Operations: a streamed case is read with the README's loop (`chunk.choices[0]?.delta.content`),
// assembled (modelgate: `finalChatCompletion()` of the stream; openai, which has no such method
// on a `Stream`: `chat.completions.stream()`), read by each SDK's `chat.completions.stream()`
// helper, parsed when the case has a schema, and run with `runTools()` when it has calls; a
// whole answer is created both ways (`stream: false`, then `stream: true`) and parsed or run the
// same way. Each outcome is summarised in one line: the text, the reasoning's length, the calls,
// the finish reason, the usage, the provider fields kept, or the error's class and message.
import ModelGate, { jsonSchema, tool } from "../dist/index.js";
import OpenAI from "openai";
import { CASES, FOLLOW_UP } from "../test/providers/corpus.ts";
import { startReplayServer } from "../test/fixtures/replay-server.ts";

const all = process.argv.includes("--all");
const markdown = process.argv.includes("--markdown");
const QUESTION = [{ role: "user", content: "Answer the question." }];
const KEY = "sk-providers-bench-0123456789";
/** Long enough for any replayed answer on a busy machine, short enough that a hang shows. */
const PATIENCE_MS = 15_000;

const clip = (text, length = 70) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);
const quote = (text) => JSON.stringify(clip(text));

function describeError(error) {
  const status = typeof error?.status === "number" ? ` ${error.status}` : "";
  const message = String(error?.message ?? error).replace(/\s+/g, " ");
  return `throws ${error?.constructor?.name ?? typeof error}${status}: ${quote(message)}`;
}

/** The fields a provider added beside the known ones, as names. */
function extraFields(value, known) {
  return value && typeof value === "object" ? Object.keys(value).filter((key) => !known.includes(key)) : [];
}

function describeCompletion(completion) {
  const choice = completion?.choices?.[0];
  if (!choice) return "no choice";
  const message = choice.message ?? {};
  const parts = [`text ${typeof message.content === "string" ? quote(message.content) : String(message.content)}`];
  const reasoning = message.reasoning ?? message.reasoning_content;
  if (typeof reasoning === "string" && reasoning) parts.push(`reasoning ${reasoning.length} ch`);
  if (message.refusal) parts.push(`refusal ${quote(message.refusal)}`);
  const calls = message.tool_calls ?? [];
  if (calls.length > 0 || Object.keys(calls).length > 0) {
    const shown = Array.from(calls, (call) => (call ? `${call.function?.name}(${call.function?.arguments})` : "<hole>"));
    parts.push(`calls ${shown.join(", ")}`);
    const extras = Array.from(calls, (call) => extraFields(call, ["id", "type", "function", "index", "parsed_arguments"]).join("+")).filter(Boolean);
    if (extras.length) parts.push(`call fields ${extras.join(", ")}`);
  }
  const kept = extraFields(message, ["role", "content", "refusal", "tool_calls", "reasoning", "reasoning_content", "parsed", "function_call", "audio"]).filter((key) => message[key] != null);
  for (const key of kept) parts.push(`${key} ${Array.isArray(message[key]) ? `×${message[key].length}` : "kept"}`);
  // openai's helpers set `parsed: null` on every message; only a parsed value says something.
  if (message.parsed != null) parts.push(`parsed ${JSON.stringify(message.parsed)}`);
  parts.push(`finish ${choice.finish_reason}`);
  parts.push(`usage ${completion.usage?.total_tokens ?? "none"}`);
  return parts.join("; ");
}

/** The README's loop, as a user writes it with either SDK. */
async function printed(stream) {
  let text = "";
  for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
  return `text ${quote(text)}`;
}

/** What the second step of a tool run was sent back: the assistant turn's provider fields. */
function describeReplay(request) {
  const assistant = request?.body?.messages?.find((message) => message.role === "assistant");
  if (!assistant) return "";
  const fields = extraFields(assistant, ["role", "content", "tool_calls", "name", "refusal", "audio"]);
  (assistant.tool_calls ?? []).forEach((call, index) => {
    for (const field of extraFields(call, ["id", "type", "function"])) fields.push(`call${index}.${field}`);
  });
  return `; sent back ${assistant.tool_calls?.length ?? 0} call(s)${fields.length ? ` +${fields.join(" +")}` : ""}`;
}

async function attempt(run) {
  try {
    return await run();
  } catch (error) {
    return describeError(error);
  }
}

/** Runs `operation(sdk, server)` against a fresh replay server serving `answers`. */
async function replay(answers, operation) {
  const server = await startReplayServer();
  server.serve(...answers);
  const signal = AbortSignal.timeout(PATIENCE_MS);
  const sdk = {
    modelgate: new ModelGate({ apiKey: KEY, baseURL: server.url, maxRetries: 0 }),
    openai: new OpenAI({ apiKey: KEY, baseURL: `${server.url}/v1`, maxRetries: 0 }),
    signal,
  };
  try {
    return await operation(sdk, server);
  } finally {
    await server.close().catch(() => server.server.close());
  }
}

const followUp = (recorded) => (recorded.stream ? FOLLOW_UP.stream : FOLLOW_UP.json);

function modelgateTools(recorded, ran) {
  return Object.entries(recorded.tools).map(([name, schema]) => tool({ name, parameters: jsonSchema(schema), run: (args) => (ran.push(`${name}${JSON.stringify(args)}`), { ok: true }) }));
}

function openaiTools(recorded, ran) {
  return Object.entries(recorded.tools).map(([name, parameters]) => ({
    type: "function",
    function: { name, parameters, parse: JSON.parse, function: (args) => (ran.push(`${name}${JSON.stringify(args)}`), { ok: true }) },
  }));
}

const responseFormat = (schema) => ({ type: "json_schema", json_schema: { name: "answer", schema: { ...schema, additionalProperties: false }, strict: true } });

/** Each operation: a name and, per SDK, what it gives. */
function operationsOf(recorded) {
  const base = { model: "auto", messages: QUESTION };
  const ops = [];
  if (recorded.stream) {
    ops.push(["README loop", [recorded.answer], {
      modelgate: ({ modelgate, signal }) => attempt(async () => printed(await modelgate.chat.completions.create({ ...base, stream: true }, { signal }))),
      openai: ({ openai, signal }) => attempt(async () => printed(await openai.chat.completions.create({ ...base, stream: true }, { signal }))),
    }]);
    ops.push(["assembled", [recorded.answer], {
      modelgate: ({ modelgate, signal }) => attempt(async () => describeCompletion(await (await modelgate.chat.completions.create({ ...base, stream: true }, { signal })).finalChatCompletion())),
      openai: ({ openai, signal }) => attempt(async () => describeCompletion(await openai.chat.completions.stream(base, { signal }).finalChatCompletion())),
    }]);
    ops.push(["stream() helper", [recorded.answer], {
      modelgate: ({ modelgate, signal }) => attempt(async () => describeCompletion(await modelgate.chat.completions.stream(base, { signal }).finalChatCompletion())),
      openai: ({ openai, signal }) => attempt(async () => describeCompletion(await openai.chat.completions.stream(base, { signal }).finalChatCompletion())),
    }]);
  } else {
    ops.push(["create()", [recorded.answer], {
      modelgate: ({ modelgate, signal }) => attempt(async () => describeCompletion(await modelgate.chat.completions.create(base, { signal }))),
      openai: ({ openai, signal }) => attempt(async () => describeCompletion(await openai.chat.completions.create(base, { signal }))),
    }]);
    ops.push(["create({ stream: true })", [recorded.answer], {
      modelgate: ({ modelgate, signal }) => attempt(async () => printed(await modelgate.chat.completions.create({ ...base, stream: true }, { signal }))),
      openai: ({ openai, signal }) => attempt(async () => printed(await openai.chat.completions.create({ ...base, stream: true }, { signal }))),
    }]);
  }
  if (recorded.schema) {
    const format = responseFormat(recorded.schema);
    ops.push(["parse()", [recorded.answer], {
      modelgate: ({ modelgate, signal }) =>
        attempt(async () => {
          const params = { ...base, response_format: jsonSchema(recorded.schema) };
          return describeCompletion(recorded.stream ? await (await modelgate.chat.completions.parse({ ...params, stream: true }, { signal })).finalChatCompletion() : await modelgate.chat.completions.parse(params, { signal }));
        }),
      openai: ({ openai, signal }) =>
        attempt(async () => {
          const params = { ...base, response_format: format };
          return describeCompletion(recorded.stream ? await openai.chat.completions.stream(params, { signal }).finalChatCompletion() : await openai.chat.completions.parse(params, { signal }));
        }),
    }]);
  }
  if (recorded.tools) {
    const stream = recorded.stream ? { stream: true } : {};
    ops.push(["runTools()", [recorded.answer, followUp(recorded)], {
      modelgate: ({ modelgate, signal }, server) =>
        attempt(async () => {
          const ran = [];
          const result = await modelgate.chat.completions.runTools({ ...base, ...stream, tools: modelgateTools(recorded, ran) }, { signal, maxSteps: 3 });
          return `ran ${ran.join(", ") || "nothing"}; ${result.stopReason}${describeReplay(server.requests[1])}`;
        }),
      openai: ({ openai, signal }, server) =>
        attempt(async () => {
          const ran = [];
          const runner = openai.chat.completions.runTools({ ...base, ...stream, tools: openaiTools(recorded, ran) }, { signal, maxChatCompletions: 3 });
          await runner.done();
          return `ran ${ran.join(", ") || "nothing"}; done${describeReplay(server.requests[1])}`;
        }),
    }]);
  }
  return ops;
}

const rows = [];
let operations = 0;
for (const recorded of CASES) {
  for (const [name, answers, run] of operationsOf(recorded)) {
    operations++;
    const modelgate = await replay(answers, run.modelgate);
    const openai = await replay(answers, run.openai);
    if (all || modelgate !== openai) rows.push({ id: recorded.id, provider: recorded.provider, name, modelgate, openai });
  }
}

const differing = rows.filter((row) => row.modelgate !== row.openai).length;
if (markdown) {
  const cell = (text) => text.replace(/\|/g, "\\|");
  console.log("| case | operation | modelgate | openai 6.49 |");
  console.log("|---|---|---|---|");
  for (const row of rows) console.log(`| \`${row.id}\` | ${row.name} | ${cell(row.modelgate)} | ${cell(row.openai)} |`);
} else {
  for (const row of rows) console.log(`${row.id} — ${row.name}\n  modelgate: ${row.modelgate}\n  openai:    ${row.openai}`);
}
console.log(`\n${CASES.length} cases from ${new Set(CASES.map((entry) => entry.provider)).size} providers and servers, ${operations} operations: the two SDKs differ in ${differing}.`);
