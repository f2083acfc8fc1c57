import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as v from "valibot";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { scope, type } from "arktype";
import Ajv from "ajv";
import { APIUserAbortError, ModelGateError, StructuredOutputError, jsonSchema, tool, type ChatCompletion } from "../src/index.ts";
import { sseResponse } from "./fixtures/body.ts";
import { assistantReply, chunk, completionBody, DONE, sseData, toolFragment } from "./fixtures/chunks.ts";
import { recordingClient } from "./fixtures/client.ts";
import { follow, rejection, turns } from "./fixtures/promises.ts";
import { neverChecked } from "./fixtures/schemas.ts";

// parse() without streaming: the request it sends for each way of asking for structured
// output, and the answer it gives. Streamed parse() is in structured-outputs-stream.test.ts.

const Weather = z.object({ city: z.string(), celsius: z.number() });
const Answer = z.object({ a: z.number() });
const messages = [{ role: "user" as const, content: "Weather in Paris?" }];

/** What the library's JSON Schema for an object is sent as: closed, since it is silent on `additionalProperties`. */
const closedInput = (schema: { "~standard": { jsonSchema: { input(options: { target: string }): Record<string, unknown> } } }) => ({
  ...schema["~standard"].jsonSchema.input({ target: "draft-07" }),
  additionalProperties: false,
});

/** A client answering with `content` as the assistant message (and `finish_reason`). */
function answering(content: string | null, extra: Partial<ChatCompletion["choices"][number]["message"]> = {}, finish: string = "stop") {
  return recordingClient(() => {
    const completion = completionBody(content ?? "");
    completion.choices[0] = { index: 0, message: { role: "assistant", content, ...extra }, finish_reason: finish as "stop" };
    return Response.json(completion);
  });
}

describe("parse(): the request", () => {
  it("sends a Standard Schema's JSON Schema as json_schema under the name \"response\", its objects closed, strict when strict mode takes it", async () => {
    const { client, sent } = answering('{"city":"Paris","celsius":21}');
    const Optional = z.object({ city: z.string(), celsius: z.number().optional() });
    await client.chat.completions.parse({ model: "some/model", messages, response_format: Weather });
    await client.chat.completions.parse({ model: "some/model", messages, response_format: z.strictObject({ city: z.string(), celsius: z.number() }) });
    await client.chat.completions.parse({ model: "some/model", messages, response_format: Optional });
    const [silent, closed, optional] = sent.map((body) => body.response_format as { type: string; json_schema: Record<string, unknown> });
    expect(silent.type).toBe("json_schema");
    expect(silent.json_schema.name).toBe("response");
    expect(silent.json_schema.schema).toEqual(closedInput(Weather));
    expect(silent.json_schema.strict).toBe(true);
    expect(closed.json_schema).toEqual(silent.json_schema);
    // An optional property: strict mode cannot take it, so strict is false and the schema is only closed.
    expect(optional.json_schema.schema).toEqual(closedInput(Optional));
    expect(optional.json_schema.strict).toBe(false);
    expect(sent[0]).not.toHaveProperty("route");
  });

  it('adds "structured_outputs" to route.capabilities for model "auto", keeping the caller\'s route', async () => {
    const { client, sent } = answering('{"city":"Paris","celsius":21}');
    await client.chat.completions.parse({ model: "auto", messages, response_format: Weather, route: { sort: "quality", capabilities: ["vision"] } });
    await client.chat.completions.parse({ model: "auto", messages, response_format: Weather, route: { capabilities: ["structured_outputs"] } });
    expect(sent[0].route).toEqual({ sort: "quality", capabilities: ["vision", "structured_outputs"] });
    expect(sent[1].route).toEqual({ capabilities: ["structured_outputs"] });
  });

  it("sends jsonSchema() under its name, and OpenAI's own json_schema form exactly as given", async () => {
    const { client, sent } = answering('{"city":"Paris","celsius":21}');
    const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false };
    await client.chat.completions.parse({ model: "m", messages, response_format: jsonSchema(schema, { name: "weather" }) });
    const openAIForm = { type: "json_schema" as const, json_schema: { name: "w", schema, strict: false } };
    await client.chat.completions.parse({ model: "m", messages, response_format: openAIForm });
    expect(sent[0].response_format).toEqual({ type: "json_schema", json_schema: { name: "weather", schema, strict: true } });
    expect(sent[1].response_format).toEqual(openAIForm);
  });

  it('"tool" mode sends the schema as one forced function and no response_format', async () => {
    const { client, sent } = recordingClient(() =>
      Response.json({
        ...completionBody(""),
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "response", arguments: '{"city":"Paris","celsius":21}' } }] },
            finish_reason: "tool_calls",
          },
        ],
      }),
    );
    const completion = await client.chat.completions.parse({ model: "auto", messages, response_format: Weather }, { structuredOutput: "tool" });
    expect(completion.choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
    expect(sent[0]).not.toHaveProperty("response_format");
    expect(sent[0].tool_choice).toEqual({ type: "function", function: { name: "response" } });
    expect((sent[0].tools as { function: { name: string; parameters: unknown; strict: boolean } }[])[0].function).toMatchObject({ parameters: closedInput(Weather), strict: true });
    expect(sent[0].route).toEqual({ capabilities: ["tools"] });
  });

  it('"tool" mode wraps an answer that is not an object as { value } and unwraps it', async () => {
    const { client, sent } = recordingClient(() =>
      Response.json({
        ...completionBody(""),
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "response", arguments: '{"value":["a","b"]}' } }] },
            finish_reason: "tool_calls",
          },
        ],
      }),
    );
    const completion = await client.chat.completions.parse({ model: "m", messages, response_format: z.array(z.string()) }, { structuredOutput: "tool" });
    expect(completion.choices[0].message.parsed).toEqual(["a", "b"]);
    const parameters = (sent[0].tools as { function: { parameters: { $schema?: string; properties: { value: unknown } } } }[])[0].function.parameters;
    const { $schema, ...arraySchema } = z.array(z.string())["~standard"].jsonSchema.input({ target: "draft-07" });
    expect(parameters.properties.value).toEqual(arraySchema);
    expect(parameters.$schema).toBe($schema);
  });

  it('"json_object" mode asks for a JSON object and puts the schema in a system message', async () => {
    const { client, sent } = answering('{"city":"Paris","celsius":21}');
    const completion = await client.chat.completions.parse({ model: "auto", messages, response_format: Weather }, { structuredOutput: "json_object" });
    expect(completion.choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
    expect(sent[0].response_format).toEqual({ type: "json_object" });
    const [system, ...rest] = sent[0].messages as { role: string; content: string }[];
    expect(system.role).toBe("system");
    expect(system.content).toContain(JSON.stringify(closedInput(Weather)));
    expect(rest).toEqual(messages);
    expect(sent[0].route).toEqual({ capabilities: ["json"] });
  });

  it("rejects, sending nothing, a schema without JSON Schema, a bad mode, a name clash and a forced tool_choice", async () => {
    const { client, sent } = answering("{}");
    const valibotAlone = v.object({ city: v.string() });
    const noJSONSchema = await rejection(client.chat.completions.parse({ model: "m", messages, response_format: valibotAlone as never }));
    expect(noJSONSchema).toBeInstanceOf(ModelGateError);
    expect((noJSONSchema as Error).message).toMatch(/valibot schema that offers no JSON Schema \(`~standard\.jsonSchema` is missing\).*toStandardJsonSchema/);
    const badMode = await rejection(client.chat.completions.parse({ model: "m", messages, response_format: Weather }, { structuredOutput: "xml" as never }));
    expect((badMode as Error).message).toBe('`structuredOutput` must be one of "json_schema", "tool", "json_object"; got "xml".');
    const clash = tool({ name: "response", parameters: z.object({}) });
    const clashing = await rejection(client.chat.completions.parse({ model: "m", messages, response_format: Weather, tools: [clash] }, { structuredOutput: "tool" }));
    expect(clashing).toMatchObject({ param: "tools", message: expect.stringMatching(/already has a function named "response"/) });
    const forced = await rejection(client.chat.completions.parse({ model: "m", messages, response_format: Weather, tool_choice: "auto" }, { structuredOutput: "tool" }));
    expect(forced).toMatchObject({ param: "tool_choice" });
    const notASchema = await rejection(client.chat.completions.parse({ model: "m", messages, response_format: { type: "text" } as never }));
    expect((notASchema as Error).message).toMatch(/^`response_format` must be a Standard Schema/);
    expect(sent).toHaveLength(0);
  });

  it("rejects with a ModelGateError, the original as its cause without the key, a schema too deep to walk or whose getter or Proxy throws", async () => {
    const apiKey = "sk-live-SECRETKEY0123456789abcdef";
    const { client, sent } = recordingClient(() => Response.json(completionBody("{}")), { apiKey });
    const deep: Record<string, unknown> = { type: "object", properties: {} };
    let node = deep;
    for (let level = 0; level < 100_000; level++) {
      const inner = { type: "object", properties: {} };
      (node.properties as Record<string, unknown>).x = inner;
      node = inner;
    }
    const tooDeep = await rejection(client.chat.completions.parse({ model: "m", messages, response_format: jsonSchema(deep) }));
    expect(tooDeep).toBeInstanceOf(ModelGateError);
    expect((tooDeep as ModelGateError).message).toBe("`response_format` is nested too deeply to be read (Maximum call stack size exceeded).");
    expect((tooDeep as ModelGateError).param).toBe("response_format");
    expect((tooDeep as Error).cause).toBeInstanceOf(RangeError);
    const asTool = await rejection(client.chat.completions.parse({ model: "m", messages, tools: [tool({ name: "t", parameters: jsonSchema(deep) })] }));
    expect((asTool as ModelGateError).message).toMatch(/^`tools` is nested too deeply to be read/);

    const getter = jsonSchema({ type: "object", get properties(): never { throw new Error(`no properties for ${apiKey}`); } });
    const proxy = jsonSchema(new Proxy({ type: "object" }, { ownKeys: () => { throw new TypeError(`ownKeys ${apiKey}`); } }));
    for (const schema of [getter, proxy]) {
      const error = await rejection(client.chat.completions.parse({ model: "m", messages, response_format: schema }));
      expect(error).toBeInstanceOf(ModelGateError);
      expect((error as Error).message).toMatch(/^`response_format` cannot be read, reading it threw: (no properties for|ownKeys) \[redacted\]\.$/);
      expect((error as Error).cause).toBeInstanceOf(Error);
      expect(((error as Error).cause as Error).message).not.toContain(apiKey.slice(8, 16));
    }
    expect(sent).toHaveLength(0);
  });

  it("never throws synchronously, whatever plain JavaScript passes", async () => {
    const { client, sent } = answering("{}");
    const parse = client.chat.completions.parse as (...args: unknown[]) => Promise<unknown>;
    for (const args of [[], [null], [42], [{ model: "m", messages }, "options"], [{ model: "m", messages: "hi", response_format: Weather }]]) {
      let promise: Promise<unknown> | undefined;
      expect(() => (promise = parse.apply(client.chat.completions, args))).not.toThrow();
      expect(await rejection(promise!)).toBeInstanceOf(ModelGateError);
    }
    expect(sent).toHaveLength(0);
  });

  it('sends a valid JSON Schema in "tool" mode when the root is not an object: definitions move up with it', async () => {
    const recursive = scope({ node: { name: "string", children: "node[]" } }).export().node;
    const Node: z.ZodType<{ name: string; children: unknown[] }> = z.object({ name: z.string(), get children() { return z.array(Node); } });
    for (const schema of [recursive, z.array(Node), z.array(z.object({ x: z.string() }).meta({ id: "Item" }))]) {
      const { client, sent } = recordingClient(() => Response.json(assistantReply({ tool_calls: [] }, "tool_calls")));
      await client.chat.completions.parse({ model: "m", messages, response_format: schema }, { structuredOutput: "tool" }).catch(() => undefined);
      const parameters = (sent[0]!.tools as { function: { parameters: Record<string, unknown> } }[]).at(-1)!.function.parameters;
      expect(() => new Ajv({ strict: false }).compile(parameters)).not.toThrow();
    }
    const answer = { value: { name: "root", children: [{ name: "leaf", children: [] }] } };
    const { client } = recordingClient(() => Response.json(assistantReply({ tool_calls: [{ id: "c", type: "function", function: { name: "response", arguments: JSON.stringify(answer) } }] }, "tool_calls")));
    const parsed = await client.chat.completions.parse({ model: "m", messages, response_format: recursive }, { structuredOutput: "tool" });
    expect(parsed.choices[0]!.message.parsed).toEqual(answer.value);
  });

  it("sends strict: false when an object anywhere is open, additionalItems, dependencies and unevaluatedItems included", async () => {
    const open = { type: "object", properties: { x: { type: "string" } } };
    for (const schema of [
      { type: "array", items: [{ type: "string" }], additionalItems: open },
      { type: "object", properties: {}, required: [], additionalProperties: false, dependencies: { x: open } },
      { type: "array", unevaluatedItems: open },
    ]) {
      const { client, sent } = recordingClient(() => Response.json(assistantReply({ content: "[]" })));
      await client.chat.completions.parse({ model: "m", messages, response_format: jsonSchema(schema) }).catch(() => undefined);
      expect((sent[0]!.response_format as { json_schema: { strict: boolean } }).json_schema.strict).toBe(false);
    }
  });

  it("names the caller's own mistakes, as the caller wrote them", async () => {
    const { client, sent } = recordingClient(() => Response.json(assistantReply({ content: "{}" })));
    const badMessage = await client.chat.completions.parse({ model: "m", messages: [{ role: "bot" } as never], response_format: Answer }, { structuredOutput: "json_object" }).catch((caught: unknown) => caught);
    expect((badMessage as Error).message).toMatch(/^`messages\[0\]\.role` must be/);
    const badTools = await client.chat.completions.parse({ model: "m", messages, response_format: Answer, tools: "lookup" as never }, { structuredOutput: "tool" }).catch((caught: unknown) => caught);
    expect((badTools as Error).message).toMatch(/^`tools` must be an array/);
    const badRoute = await client.chat.completions.parse({ model: "auto", messages, response_format: Answer, route: { capabilities: "vision" as never } }).catch((caught: unknown) => caught);
    expect((badRoute as Error).message).toMatch(/^`route\.capabilities` must be an array/);
    expect(sent).toHaveLength(0);
    const thrown = (action: () => unknown) => {
      try {
        action();
      } catch (error) {
        return error as ModelGateError;
      }
      throw new Error("nothing was thrown");
    };
    expect(thrown(() => tool("x" as never))).toMatchObject({ param: "definition", message: 'tool(): `definition` must be an object such as { name, description, parameters, run }; got "x".' });
    expect(thrown(() => tool({ name: "t", description: 42 as never, parameters: Answer }))).toMatchObject({ param: "description" });
    expect(thrown(() => tool({ name: "t", strict: "yes" as never, parameters: Answer }))).toMatchObject({ param: "strict" });
    expect(thrown(() => tool({ name: "t", parameters: z.string() as never }))).toMatchObject({ param: "parameters", message: expect.stringMatching(/`parameters` must describe an object/) });
    expect(thrown(() => jsonSchema({}, "weather" as never))).toMatchObject({ param: "options" });
    expect(thrown(() => jsonSchema([] as never))).toMatchObject({ param: "schema" });
  });
});

describe("parse(): the answer", () => {
  it("gives the validated value as message.parsed, with the reply otherwise untouched", async () => {
    const { client } = answering('{"city":"Paris","celsius":21}');
    const completion = await client.chat.completions.parse({ model: "m", messages, response_format: Weather });
    expect(completion.choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
    expect(completion.choices[0].message.content).toBe('{"city":"Paris","celsius":21}');
  });

  it("uses what the schema returns (transforms and defaults) and what jsonSchema()'s validate returns", async () => {
    const { client } = answering('{"city":"paris"}');
    const Upper = z.object({ city: z.string().transform((city) => city.toUpperCase()), celsius: z.number().default(20) });
    const fromZod = await client.chat.completions.parse({ model: "m", messages, response_format: Upper });
    expect(fromZod.choices[0].message.parsed).toEqual({ city: "PARIS", celsius: 20 });
    const checked = jsonSchema<{ city: string }>({ type: "object" }, { validate: (value) => ({ city: `${(value as { city: string }).city}!` }) });
    const fromFunction = await client.chat.completions.parse({ model: "m", messages, response_format: checked });
    expect(fromFunction.choices[0].message.parsed).toEqual({ city: "paris!" });
  });

  it("works with Valibot through its adapter and with ArkType, reporting their issues with paths", async () => {
    const { client } = answering('{"city":"Paris","celsius":"warm"}');
    const valibot = toStandardJsonSchema(v.object({ city: v.string(), celsius: v.number() }));
    const ark = type({ city: "string", celsius: "number" });
    for (const schema of [valibot, ark, Weather]) {
      const error = await rejection(client.chat.completions.parse({ model: "m", messages, response_format: schema }));
      expect(error).toBeInstanceOf(StructuredOutputError);
      const { issues, content, completion } = error as StructuredOutputError;
      expect(issues).toHaveLength(1);
      expect(issues[0].path).toEqual(["celsius"]);
      expect(issues[0].message).toEqual(expect.any(String));
      expect(content).toBe('{"city":"Paris","celsius":"warm"}');
      expect(completion.choices[0].message.content).toBe(content);
      expect((error as Error).message).toMatch(/^The answer does not match the schema: celsius: /);
    }
    const fine = await client.chat.completions.parse({ model: "m", messages, response_format: type({ city: "string", celsius: "string" }) });
    expect(fine.choices[0].message.parsed).toEqual({ city: "Paris", celsius: "warm" });
  });

  it("throws StructuredOutputError for invalid JSON, with one issue describing it", async () => {
    const { client } = answering('{"city":"Paris", celsius: 21}');
    const error = (await rejection(client.chat.completions.parse({ model: "m", messages, response_format: Weather }))) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.message).toMatch(/^The answer is not valid JSON: /);
    expect(error.issues).toEqual([{ message: error.message.slice(0, -1) }]);
    expect(error.content).toBe('{"city":"Paris", celsius: 21}');
  });

  it('throws StructuredOutputError for a reply cut by the token limit, even when its JSON happens to parse', async () => {
    for (const content of ['{"city":"Par', '{"city":"Paris","celsius":21}']) {
      const { client } = answering(content, {}, "length");
      const error = (await rejection(client.chat.completions.parse({ model: "m", messages, response_format: Weather }))) as StructuredOutputError;
      expect(error).toBeInstanceOf(StructuredOutputError);
      expect(error.message).toMatch(/finish_reason "length".*raise max_tokens/);
      expect(error.content).toBe(content);
    }
  });

  it("gives parsed: null on a refusal", async () => {
    const { client } = answering(null, { refusal: "I can't help with that." });
    const completion = await client.chat.completions.parse({ model: "m", messages, response_format: Weather });
    expect(completion.choices[0].message.parsed).toBeNull();
    expect(completion.choices[0].message.refusal).toBe("I can't help with that.");
  });

  it("throws when there is no answer at all, and accepts JSON wrapped in a Markdown fence", async () => {
    const empty = answering(null);
    expect(await rejection(empty.client.chat.completions.parse({ model: "m", messages, response_format: Weather }))).toBeInstanceOf(StructuredOutputError);
    const fenced = answering('```json\n{"city":"Paris","celsius":21}\n```');
    const completion = await fenced.client.chat.completions.parse({ model: "m", messages, response_format: Weather });
    expect(completion.choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
  });

  it("parses every choice", async () => {
    const { client } = recordingClient(() =>
      Response.json({
        ...completionBody(""),
        choices: [0, 1].map((index) => ({ index, message: { role: "assistant", content: `{"city":"C${index}","celsius":${index}}` }, finish_reason: "stop" })),
      }),
    );
    const completion = await client.chat.completions.parse({ model: "m", messages, response_format: Weather, n: 2 });
    expect(completion.choices.map((choice) => choice.message.parsed)).toEqual([
      { city: "C0", celsius: 0 },
      { city: "C1", celsius: 1 },
    ]);
  });

  it("gives the OpenAI json_schema form's JSON unvalidated, and parsed: null without a response_format", async () => {
    const { client } = answering('{"anything":[1,2]}');
    const raw = await client.chat.completions.parse({ model: "m", messages, response_format: { type: "json_schema", json_schema: { name: "x", schema: {} } } });
    expect(raw.choices[0].message.parsed).toEqual({ anything: [1, 2] });
    const none = await client.chat.completions.parse({ model: "m", messages });
    expect(none.choices[0].message.parsed).toBeNull();
  });

  it("adds parsed_arguments to the calls of tool() tools, and rejects arguments their schema refuses", async () => {
    const getWeather = tool({ name: "get_weather", description: "Weather", parameters: z.object({ city: z.string() }) });
    const reply = (args: string) =>
      recordingClient(() =>
        Response.json({
          ...completionBody(""),
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: null,
                tool_calls: [
                  { id: "c1", type: "function", function: { name: "get_weather", arguments: args } },
                  { id: "c2", type: "function", function: { name: "other", arguments: "{}" } },
                ],
              },
              finish_reason: "tool_calls",
            },
          ],
        }),
      );
    const plain = { type: "function" as const, function: { name: "other", parameters: {} } };
    const good = reply('{"city":"Paris"}');
    const completion = await good.client.chat.completions.parse({ model: "m", messages, tools: [getWeather, plain] });
    const [call, other] = completion.choices[0].message.tool_calls!;
    expect(call.function.parsed_arguments).toEqual({ city: "Paris" });
    expect(other.function).not.toHaveProperty("parsed_arguments");
    expect(good.sent[0].tools).toEqual([
      { type: "function", function: { name: "get_weather", description: "Weather", parameters: closedInput(z.object({ city: z.string() })), strict: true } },
      plain,
    ]);
    const bad = reply('{"city":7}');
    const error = (await rejection(bad.client.chat.completions.parse({ model: "m", messages, tools: [getWeather] }))) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.message).toMatch(/^The arguments of the "get_weather" call does not match the schema: city: /);
  });

  it("reads a call's arguments as runTools() does: blank text is no arguments, an object its JSON, null none; never 'not valid JSON' nor 'did not call'", async () => {
    const now = tool({ name: "now", parameters: z.object({}), run: () => "12:00" });
    const getWeather = tool({ name: "get_weather", parameters: z.object({ city: z.string() }) });
    const calling = (name: string, args: unknown) => recordingClient(() => Response.json(assistantReply({ tool_calls: [{ id: "c1", type: "function", function: { name, arguments: args } }] }, "tool_calls"))).client;
    const parsedArguments = async (name: string, args: unknown) =>
      (await calling(name, args).chat.completions.parse({ model: "m", messages, tools: [now, getWeather] })).choices[0]!.message.tool_calls![0]!.function.parsed_arguments;
    expect(await parsedArguments("now", "")).toEqual({});
    expect(await parsedArguments("now", "  ")).toEqual({});
    expect(await parsedArguments("now", null)).toEqual({});
    expect(await parsedArguments("get_weather", { city: "Paris" })).toEqual({ city: "Paris" });
    // The same reply to runTools() runs the tool with the same arguments.
    const ran: unknown[] = [];
    const timed = tool({ name: "now", parameters: z.object({}), run: (args) => (ran.push(args), "12:00") });
    let step = 0;
    const { client } = recordingClient(() =>
      Response.json(step++ === 0 ? assistantReply({ tool_calls: [{ id: "c1", type: "function", function: { name: "now", arguments: "" } }] }, "tool_calls") : assistantReply({ content: "noon" })),
    );
    await client.chat.completions.runTools({ model: "m", messages, tools: [timed] });
    expect(ran).toEqual([{}]);
    // "tool" mode: the forced call's object arguments are the answer.
    const answer = await calling("response", { city: "Paris", celsius: 21 }).chat.completions.parse({ model: "m", messages, response_format: Weather }, { structuredOutput: "tool" });
    expect(answer.choices[0]!.message.parsed).toEqual({ city: "Paris", celsius: 21 });
    // Arguments that are not an object of named arguments are refused as runTools() refuses them.
    const listed = (await rejection(calling("now", "[1]").chat.completions.parse({ model: "m", messages, tools: [now] }))) as StructuredOutputError;
    expect(listed).toBeInstanceOf(StructuredOutputError);
    expect(listed.message).toBe('The arguments of the "now" call is not a JSON object: a function\'s arguments are named.');
  });

  it("resolves withResponse() to the parsed completion and the response", async () => {
    const { client } = recordingClient(() => new Response(JSON.stringify(completionBody('{"city":"Paris","celsius":21}')), { headers: { "x-request-id": "req_1", "content-type": "application/json" } }));
    const { data, response, requestID } = await client.chat.completions.parse({ model: "m", messages, response_format: Weather }).withResponse();
    expect(data.choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
    expect(requestID).toBe("req_1");
    expect(JSON.parse(await response.text()).choices[0].message.content).toBe('{"city":"Paris","celsius":21}');
  });

  it("gives parsed: null and the parsed_arguments when the model calls a tool instead of answering, streamed and not", async () => {
    const lookup = tool({ name: "lookup", parameters: z.object({ city: z.string() }) });
    const call = { id: "c1", type: "function", function: { name: "lookup", arguments: '{"city":"Paris"}' } };
    const plain = recordingClient(() => Response.json(assistantReply({ tool_calls: [call] }, "tool_calls")));
    const completion = await plain.client.chat.completions.parse({ model: "m", messages, response_format: Answer, tools: [lookup] });
    expect(completion.choices[0]!.message.parsed).toBeNull();
    expect(completion.choices[0]!.message.tool_calls![0]!.function.parsed_arguments).toEqual({ city: "Paris" });
    const events = [sseData(chunk(toolFragment({ index: 0, id: "c1", name: "lookup", arguments: '{"city":"Paris"}' }))), sseData(chunk({}, { finish: "tool_calls" })), DONE];
    const streamed = recordingClient(() => sseResponse(events));
    const stream = await streamed.client.chat.completions.parse({ model: "m", messages, response_format: Answer, tools: [lookup], stream: true });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.message.parsed).toBeNull();
    expect(final.choices[0]!.message.tool_calls![0]!.function.parsed_arguments).toEqual({ city: "Paris" });
  });

  it("reports a schema whose own code throws, or returns no result, as StructuredOutputError with the cause", async () => {
    const { client } = recordingClient(() => Response.json(assistantReply({ content: '{"when":"not a date"}' })));
    const throwing = z.object({ when: z.string().transform((text) => new Date(text).toISOString()) });
    const error = (await client.chat.completions.parse({ model: "m", messages, response_format: throwing }).catch((caught: unknown) => caught)) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.message).toMatch(/rejected by the schema, which threw: Invalid time value/);
    expect(error.cause).toBeInstanceOf(RangeError);
    const silent = { "~standard": { version: 1, vendor: "custom", validate: () => undefined, jsonSchema: { input: () => ({ type: "object" }), output: () => ({}) } } };
    const second = await client.chat.completions.parse({ model: "m", messages, response_format: silent as never }).catch((caught: unknown) => caught);
    expect(second).toBeInstanceOf(StructuredOutputError);
  });

  it("rejects with APIUserAbortError when the caller aborts while the schema's async check is pending, even one that never settles", async () => {
    const { schema, checking } = neverChecked();
    const { client } = answering('{"city":"Paris"}');
    const caller = new AbortController();
    const call = follow(client.chat.completions.parse({ model: "m", messages, response_format: schema }, { signal: caller.signal }));
    await checking;
    caller.abort();
    await turns();
    expect(call.standing().error).toBeInstanceOf(APIUserAbortError);
  });

  it("says so when a schema's validate reports a failure without issues, or returns what is not a Standard Schema result", async () => {
    const returning = (result: unknown) => ({ "~standard": { version: 1, vendor: "custom", validate: () => result, jsonSchema: { input: () => ({ type: "object" }), output: () => ({}) } } });
    const { client } = recordingClient(() => Response.json(assistantReply({ content: '{"city":"Paris"}' })));
    const failure = async (result: unknown) => (await rejection(client.chat.completions.parse({ model: "m", messages, response_format: returning(result) as never }))) as StructuredOutputError;
    const empty = await failure({ issues: [] });
    expect(empty).toBeInstanceOf(StructuredOutputError);
    expect(empty.message).toBe("The answer does not match the schema: the schema's `~standard.validate()` reported a failure without any issue (an empty `issues` list).");
    expect(empty.issues).toEqual([{ message: "the schema's `~standard.validate()` reported a failure without any issue (an empty `issues` list)" }]);
    // A string is not a list of issues: its letters are not listed as issues.
    const letters = await failure({ issues: "bad" });
    expect(letters).toBeInstanceOf(StructuredOutputError);
    expect(letters.message).toBe("The answer could not be checked: the schema's `~standard.validate()` returned `issues` that is not a list (a string): not a Standard Schema result ({ value } or { issues: [...] }).");
    expect(letters.issues).toHaveLength(1);
    expect((await failure(undefined)).message).toMatch(/^The answer could not be checked: the schema's `~standard.validate\(\)` returned undefined: not a Standard Schema result/);
    // Neither a value nor issues is no pass (it gave parsed: undefined for a valid reply), nor are falsy issues.
    expect((await failure({})).message).toMatch(/returned neither `value` nor `issues`: not a Standard Schema result/);
    for (const issues of [0, "", false]) expect((await failure({ issues })).message, String(issues)).toMatch(/`issues` that is not a list/);
    // A claimed length is not walked: the first issues are kept, and the rest are counted.
    const many = await failure({ issues: Object.assign([{ message: "first", path: Object.assign(["a"], { length: 2 ** 32 - 1 }) }], { length: 2 ** 31 }) });
    expect(many.issues![0]!.message).toBe("first");
    expect(many.issues![0]!.path!.length).toBeLessThanOrEqual(64);
    expect(many.issues!.length).toBeLessThanOrEqual(100);
    const counted = await failure({ issues: Array.from({ length: 250 }, (_, index) => ({ message: `issue ${index}` })) });
    expect(counted.message).toContain("issue 0; issue 1; issue 2 (and 247 more)");
    // Thrown issues (a ZodError's) are read the same way.
    const throwing = { "~standard": { version: 1, vendor: "custom", validate: () => { throw Object.assign(new Error("invalid"), { issues: Object.assign([{ message: "thrown" }], { length: 2 ** 32 - 1 }) }); }, jsonSchema: { input: () => ({ type: "object" }), output: () => ({}) } } };
    const thrown = (await rejection(client.chat.completions.parse({ model: "m", messages, response_format: throwing as never }))) as StructuredOutputError;
    expect(thrown.issues![0]!.message).toBe("thrown");
    expect(thrown.issues!.length).toBeLessThanOrEqual(100);
  });

  it("gives the raw response from asResponse() even when the answer does not validate", async () => {
    const { client } = recordingClient(() => Response.json(assistantReply({ content: "not json" })));
    const call = client.chat.completions.parse({ model: "m", messages, response_format: Answer });
    const response = await call.asResponse();
    expect(response.status).toBe(200);
    expect((await response.json()).choices[0].message.content).toBe("not json");
    await expect(call).rejects.toBeInstanceOf(StructuredOutputError);
    await expect(call.withResponse()).rejects.toBeInstanceOf(StructuredOutputError);
  });

  it("gives one Response to withResponse() and asResponse(), as openai does", async () => {
    const { client } = recordingClient(() => Response.json(assistantReply({ content: '{"a":42}' })));
    const call = client.chat.completions.parse({ model: "m", messages, response_format: Answer });
    const { response } = await call.withResponse();
    expect(await call.asResponse()).toBe(response);
  });
});

describe("strict by default", () => {
  /** What parse() sends as `json_schema` for `schema`, and as the forced function of "tool" mode. */
  async function sentFor(schema: Parameters<typeof jsonSchema>[0] | { "~standard": unknown }) {
    const format = "~standard" in schema ? schema : jsonSchema(schema);
    const { client, sent } = answering("{}");
    await client.chat.completions.parse({ model: "m", messages, response_format: format as never }).catch(() => undefined);
    await client.chat.completions.parse({ model: "m", messages, response_format: format as never }, { structuredOutput: "tool" }).catch(() => undefined);
    const { json_schema } = sent[0].response_format as { json_schema: { schema: Record<string, unknown>; strict: boolean } };
    const forced = (sent[1].tools as { function: { parameters: Record<string, unknown>; strict: boolean } }[])[0].function;
    return { schema: json_schema.schema, strict: json_schema.strict, forced };
  }

  /** The tools that create(), parse() and runTools() each send for `tools` (runTools() runs none: the reply calls none). */
  async function toolsSentBy(tools: unknown[]) {
    const { client, sent } = answering("{}");
    await client.chat.completions.create({ model: "m", messages, tools: tools as never });
    await client.chat.completions.parse({ model: "m", messages, tools: tools as never });
    await client.chat.completions.runTools({ model: "m", messages, tools: tools as never });
    return { create: sent[0].tools, parse: sent[1].tools, runTools: sent[2].tools };
  }

  it("sends Zod's z.object(), Valibot's object() and ArkType's type() closed and strict, as response_format, as the forced function and as a tool()", async () => {
    const schemas = {
      zod: z.object({ city: z.string(), tags: z.array(z.object({ name: z.string() })) }),
      valibot: toStandardJsonSchema(v.object({ city: v.string(), tags: v.array(v.object({ name: v.string() })) })),
      arktype: type({ city: "string", tags: type({ name: "string" }).array() }),
    };
    for (const [library, schema] of Object.entries(schemas)) {
      const input = schema["~standard"].jsonSchema.input({ target: "draft-07" }) as Record<string, unknown>;
      expect(input, `${library}'s own JSON Schema is silent on additionalProperties`).not.toHaveProperty("additionalProperties");
      const { schema: sent, strict, forced } = await sentFor(schema);
      expect(strict, library).toBe(true);
      expect(sent).toMatchObject({ type: "object", additionalProperties: false, properties: { tags: { items: { additionalProperties: false } } } });
      expect(forced, library).toEqual({ name: "response", description: expect.any(String), parameters: sent, strict: true });
      // A tool() keeps the library's schema; whatever sends it sends it closed and strict.
      const defined = tool({ name: "t", parameters: schema, run: () => "" });
      expect(defined.function.parameters, library).toEqual(input);
      const wire = [{ type: "function", function: { name: "t", parameters: sent, strict: true } }];
      expect(await toolsSentBy([defined]), library).toEqual({ create: wire, parse: wire, runTools: wire });
    }
  });

  it("keeps create()'s promise whole when it is given tool() tools: withResponse(), asResponse() and a stream", async () => {
    const lookup = tool({ name: "lookup", parameters: z.object({ city: z.string() }) });
    const { client, sent } = recordingClient((body) =>
      body.stream === true ? sseResponse([sseData(chunk({ content: "hi" })), sseData(chunk({}, { finish: "stop" })), DONE]) : new Response(JSON.stringify(completionBody("hi")), { headers: { "x-request-id": "req_7" } }),
    );
    const { data, requestID } = await client.chat.completions.create({ model: "m", messages, tools: [lookup] }).withResponse();
    expect(data.choices[0].message.content).toBe("hi");
    expect(requestID).toBe("req_7");
    expect((await client.chat.completions.create({ model: "m", messages, tools: [lookup] }).asResponse()).status).toBe(200);
    const stream = await client.chat.completions.create({ model: "m", messages, tools: [lookup], stream: true });
    expect(await stream.text()).toBe("hi");
    for (const body of sent) expect((body.tools as { function: { strict: boolean } }[])[0].function.strict).toBe(true);
    expect(sent).toHaveLength(3);
  });

  it("closes each object silent on additionalProperties in properties, items, $defs, definitions and anyOf/oneOf branches, but none inside allOf", async () => {
    const open = (name: string) => ({ type: "object", properties: { [name]: { type: "string" } }, required: [name] });
    const closed = (name: string) => ({ ...open(name), additionalProperties: false });
    const { schema } = await sentFor({
      type: "object",
      properties: { nested: open("a"), list: { type: "array", items: open("b") }, either: { anyOf: [open("c"), { type: "null" }] }, one: { oneOf: [open("d")] }, both: { allOf: [open("e"), open("f")] }, kept: { ...open("g"), additionalProperties: true } },
      required: ["nested", "list", "either", "one", "both", "kept"],
      $defs: { x: open("x") },
      definitions: { y: open("y") },
    });
    expect(schema).toEqual({
      type: "object",
      properties: { nested: closed("a"), list: { type: "array", items: closed("b") }, either: { anyOf: [closed("c"), { type: "null" }] }, one: { oneOf: [closed("d")] }, both: { allOf: [open("e"), open("f")] }, kept: { ...open("g"), additionalProperties: true } },
      required: ["nested", "list", "either", "one", "both", "kept"],
      $defs: { x: closed("x") },
      definitions: { y: closed("y") },
      additionalProperties: false,
    });
  });

  it("leaves open the definitions an allOf branch refers to, and what they refer to, closing the others", async () => {
    const open = (name: string, extra: Record<string, unknown> = {}) => ({ type: "object", properties: { [name]: { type: "string" }, ...extra }, required: [name] });
    const { schema } = await sentFor({
      type: "object",
      properties: { both: { allOf: [{ $ref: "#/$defs/base" }, open("extra")] }, alone: { $ref: "#/$defs/other" } },
      required: ["both", "alone"],
      $defs: { base: open("id", { inner: { $ref: "#/$defs/inner" } }), inner: open("deep"), other: open("x") },
    });
    expect(schema.$defs).toEqual({ base: open("id", { inner: { $ref: "#/$defs/inner" } }), inner: open("deep"), other: { ...open("x"), additionalProperties: false } });
  });

  it("keeps strict for every keyword strict mode supports: nesting, unions with null, enums, recursion, patterns, formats, bounds", async () => {
    type Node = { name: string; children: Node[] };
    const Node: z.ZodType<Node> = z.object({ name: z.string(), get children() { return z.array(Node); } });
    const Rich = z.object({
      kind: z.enum(["a", "b"]),
      fixed: z.literal("x"),
      note: z.string().nullable().describe("a note"),
      email: z.email(),
      when: z.iso.datetime(),
      code: z.string().regex(/^[A-Z]{3}$/),
      count: z.number().int().min(1).max(9).multipleOf(1),
      tags: z.array(z.string()).min(1).max(3),
      tree: Node,
      self: Node,
    });
    expect((await sentFor(Rich)).strict).toBe(true);
    expect((await sentFor(Node)).strict).toBe(true);
    expect((await sentFor(toStandardJsonSchema(v.object({ size: v.picklist(["s", "m"]), fixed: v.literal(1), maybe: v.nullable(v.string()) })))).strict).toBe(true);
    expect((await sentFor(type({ size: "'s'|'m'", maybe: "string|null", whole: "number.integer" }))).strict).toBe(true);
  });

  it("sends strict: false, the schema only closed, when strict mode cannot take it", async () => {
    const cases: [string, Record<string, unknown> | { "~standard": unknown }][] = [
      ["an optional property", z.object({ city: z.string().optional() })],
      ["a default", z.object({ city: z.string().default("Paris") })],
      ["minLength", z.object({ city: z.string().min(1) })],
      ["a format strict mode lacks", z.object({ site: z.url() })],
      ["oneOf", z.object({ shape: z.discriminatedUnion("kind", [z.object({ kind: z.literal("a") }), z.object({ kind: z.literal("b") })]) })],
      ["a value of any type", z.object({ anything: z.unknown() })],
      ["a tuple", z.object({ pair: z.tuple([z.string(), z.number()]) })],
      ["a record (additionalProperties as a schema)", z.object({ scores: z.record(z.string(), z.number()) })],
      ["a root that is not an object", z.array(z.string())],
      ["allOf", { type: "object", properties: { both: { allOf: [{ type: "string" }, { minLength: 1 }] } }, required: ["both"] }],
      ["an object left open on purpose", { type: "object", properties: {}, additionalProperties: true }],
      ["a $ref with siblings", { type: "object", properties: { a: { $ref: "#/$defs/a", description: "x" } }, required: ["a"], $defs: { a: { type: "string" } } }],
      ["an array without items", { type: "object", properties: { list: { type: "array" } }, required: ["list"] }],
      ["a boolean schema", { type: "object", properties: { any: true }, required: ["any"] }],
      ["a root anyOf", { anyOf: [{ type: "object", properties: {} }, { type: "null" }] }],
      ["the root in an intersection", { type: "object", properties: { child: { allOf: [{ $ref: "#" }] } }, required: ["child"] }],
    ];
    for (const [what, schema] of cases) {
      const own = "~standard" in schema ? ((schema as { "~standard": { jsonSchema: { input(options: object): Record<string, unknown> } } })["~standard"].jsonSchema.input({ target: "draft-07" })) : schema;
      const sent = await sentFor(schema);
      expect(sent.strict, what).toBe(false);
      // Nothing is rewritten to make it strict: the schema is the library's, objects closed where silent.
      expect(JSON.stringify(sent.schema).replaceAll(',"additionalProperties":false', ""), what).toBe(JSON.stringify(own));
    }
  });

  it("never changes what is accepted: the reply is checked by the caller's own schema, not the closed one", async () => {
    const { client } = answering('{"city":"Paris","celsius":21,"note":"a key the closed schema forbids"}');
    const seen: unknown[] = [];
    const open = jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }, { validate: (value) => (seen.push(value), value as { city: string }) });
    const completion = await client.chat.completions.parse({ model: "m", messages, response_format: open });
    expect(completion.choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21, note: "a key the closed schema forbids" });
    expect(seen).toHaveLength(1);
    // Zod's object drops unknown keys rather than rejecting them; so it does here.
    expect((await client.chat.completions.parse({ model: "m", messages, response_format: Weather })).choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
  });

  it("leaves the caller's schema unchanged, keeps a tool()'s own strict, and refuses a schema that refers to itself with a clear error", async () => {
    const schema: Record<string, unknown> = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
    const before = structuredClone(schema);
    const loose = tool({ name: "t", parameters: jsonSchema(schema), strict: false, run: () => "" });
    const wire = [{ type: "function", function: { name: "t", parameters: { ...before, additionalProperties: false }, strict: false } }];
    expect(await toolsSentBy([loose])).toEqual({ create: wire, parse: wire, runTools: wire });
    expect(schema).toEqual(before);
    expect(loose.function.parameters).toEqual(before);
    // Closing follows a cycle without looping; JSON, and so the request, cannot hold one.
    const cyclic: Record<string, unknown> = { type: "object", properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    const { client, sent } = answering("{}");
    for (const call of [
      client.chat.completions.parse({ model: "m", messages, response_format: jsonSchema(cyclic) }),
      client.chat.completions.create({ model: "m", messages, tools: [tool({ name: "loop", parameters: jsonSchema(cyclic) })] }),
    ]) {
      const error = await call.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ModelGateError);
      expect((error as Error).message).toMatch(/cannot be sent as JSON: .*circular/);
    }
    expect(sent).toHaveLength(0);
  });
});
