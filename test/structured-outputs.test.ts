import { describe, expect, it } from "vitest";
import { z } from "zod";
import * as v from "valibot";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { scope, type } from "arktype";
import Ajv from "ajv";
import { ModelGateError, StructuredOutputError, jsonSchema, tool, type ChatCompletion } from "../src/index.ts";
import { sseResponse } from "./fixtures/body.ts";
import { assistantReply, chunk, completionBody, DONE, sseData, toolFragment } from "./fixtures/chunks.ts";
import { recordingClient } from "./fixtures/client.ts";
import { rejection } from "./fixtures/promises.ts";

// parse() without streaming: the request it sends for each way of asking for structured
// output, and the answer it gives. Streamed parse() is in structured-outputs-stream.test.ts.

const Weather = z.object({ city: z.string(), celsius: z.number() });
const Answer = z.object({ a: z.number() });
const messages = [{ role: "user" as const, content: "Weather in Paris?" }];

/** A client answering with `content` as the assistant message (and `finish_reason`). */
function answering(content: string | null, extra: Partial<ChatCompletion["choices"][number]["message"]> = {}, finish: string = "stop") {
  return recordingClient(() => {
    const completion = completionBody(content ?? "");
    completion.choices[0] = { index: 0, message: { role: "assistant", content, ...extra }, finish_reason: finish as "stop" };
    return Response.json(completion);
  });
}

describe("parse(): the request", () => {
  it("sends a Standard Schema's JSON Schema as json_schema under the name \"response\", strict only when strict-shaped", async () => {
    const { client, sent } = answering('{"city":"Paris","celsius":21}');
    await client.chat.completions.parse({ model: "some/model", messages, response_format: Weather });
    await client.chat.completions.parse({ model: "some/model", messages, response_format: z.strictObject({ city: z.string(), celsius: z.number() }) });
    const [loose, strict] = sent.map((body) => body.response_format as { type: string; json_schema: Record<string, unknown> });
    expect(loose.type).toBe("json_schema");
    expect(loose.json_schema.name).toBe("response");
    expect(loose.json_schema.schema).toEqual(Weather["~standard"].jsonSchema.input({ target: "draft-07" }));
    expect(loose.json_schema.strict).toBe(false);
    expect(strict.json_schema.strict).toBe(true);
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
    expect((sent[0].tools as { function: { name: string; parameters: unknown } }[])[0].function.parameters).toEqual(
      Weather["~standard"].jsonSchema.input({ target: "draft-07" }),
    );
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
    expect(system.content).toContain(JSON.stringify(Weather["~standard"].jsonSchema.input({ target: "draft-07" })));
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
      { type: "function", function: { name: "get_weather", description: "Weather", parameters: z.object({ city: z.string() })["~standard"].jsonSchema.input({ target: "draft-07" }), strict: false } },
      plain,
    ]);
    const bad = reply('{"city":7}');
    const error = (await rejection(bad.client.chat.completions.parse({ model: "m", messages, tools: [getWeather] }))) as StructuredOutputError;
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect(error.message).toMatch(/^The arguments of the "get_weather" call does not match the schema: city: /);
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

  it("gives the raw response from asResponse() even when the answer does not validate", async () => {
    const { client } = recordingClient(() => Response.json(assistantReply({ content: "not json" })));
    const call = client.chat.completions.parse({ model: "m", messages, response_format: Answer });
    const response = await call.asResponse();
    expect(response.status).toBe(200);
    expect((await response.json()).choices[0].message.content).toBe("not json");
    await expect(call).rejects.toBeInstanceOf(StructuredOutputError);
    await expect(call.withResponse()).rejects.toBeInstanceOf(StructuredOutputError);
  });
});
