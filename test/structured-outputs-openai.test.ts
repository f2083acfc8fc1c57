// parse() given the objects openai's helpers make (`zodResponseFormat()`, `zodFunction()` of
// `openai/helpers/zod`, the real package with Zod 4), checked against openai itself: both
// clients get the same reply, and what modelgate fills must be what openai fills.
import OpenAI from "openai";
import { zodFunction, zodResponseFormat } from "openai/helpers/zod";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { z as z3 } from "zod/v3";
import { jsonSchema, ModelGateError, StructuredOutputError, tool, type ChatCompletion } from "../src/index.ts";
import { sseResponse } from "./fixtures/body.ts";
import { chunk, completionBody, DONE, sseData } from "./fixtures/chunks.ts";
import { recordingClient } from "./fixtures/client.ts";

const messages = [{ role: "user" as const, content: "Weather in Paris?" }];
// Zod's parse does what JSON.parse alone does not: it trims, and drops keys the schema lacks.
const Weather = z.object({ city: z.string().trim(), celsius: z.number() });
const CityArgs = z.object({ city: z.string().trim() });

/** A completion whose message holds `content` and these function calls. */
function reply(content: string | null, calls: { name: string; arguments: string }[] = []): Omit<ChatCompletion, "gateway"> {
  const completion = completionBody(content ?? "");
  const tool_calls = calls.map((call, index) => ({ id: `call_${index}`, type: "function" as const, function: call }));
  completion.choices[0] = {
    index: 0,
    message: { role: "assistant", content, ...(calls.length > 0 ? { tool_calls } : {}) },
    finish_reason: calls.length > 0 ? "tool_calls" : "stop",
  };
  return completion;
}

/** A modelgate client and an openai client, each answering every request with `completion`, and what each sent. */
function twins(completion: Omit<ChatCompletion, "gateway">) {
  const modelgate = recordingClient(() => Response.json(completion));
  const openaiSent: Record<string, unknown>[] = [];
  const openai = new OpenAI({
    apiKey: "sk-test",
    baseURL: "https://gateway.test",
    maxRetries: 0,
    fetch: async (_url, init) => {
      openaiSent.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
      return Response.json(completion);
    },
  });
  return { modelgate: modelgate.client, openai, sent: { modelgate: modelgate.sent, openai: openaiSent } };
}

describe("parse() with objects made by openai's helpers", () => {
  it("sends zodResponseFormat() as openai does and fills message.parsed with what its $parseRaw returns", async () => {
    const { modelgate, openai, sent } = twins(reply('{"city":"  Paris ","celsius":21,"note":"not in the schema"}'));
    const format = zodResponseFormat(Weather, "weather");
    const ours = await modelgate.chat.completions.parse({ model: "m", messages, response_format: format });
    const theirs = await openai.chat.completions.parse({ model: "m", messages, response_format: format });
    expect(ours.choices[0].message.parsed).toEqual({ city: "Paris", celsius: 21 });
    expect(ours.choices[0].message.parsed).toEqual(theirs.choices[0]!.message.parsed);
    expect(sent.modelgate[0]!.response_format).toEqual(sent.openai[0]!.response_format);
    expect(sent.modelgate[0]!.response_format).toMatchObject({ type: "json_schema", json_schema: { name: "weather", strict: true } });
  });

  it("fills parsed_arguments of zodFunction() tools by their $parseRaw and of strict plain tools by JSON.parse, as openai does", async () => {
    const lookup = {
      type: "function" as const,
      function: { name: "lookup", parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"], additionalProperties: false }, strict: true },
    };
    const plain = { type: "function" as const, function: { name: "plain", parameters: { type: "object", properties: {} } } };
    const calls = [
      { name: "get_weather", arguments: '{"city":" Lisbon  ","extra":1}' },
      { name: "lookup", arguments: '{"q":" as written "}' },
      { name: "plain", arguments: "{}" },
    ];
    const { modelgate, openai, sent } = twins(reply(null, calls));
    const tools = [zodFunction({ name: "get_weather", description: "Current weather", parameters: CityArgs }), lookup, plain];
    const ours = await modelgate.chat.completions.parse({ model: "m", messages, tools });
    // openai's parse() refuses a tool that is not strict (modelgate offers it, without parsed_arguments).
    const theirs = await openai.chat.completions.parse({ model: "m", messages, tools: tools.slice(0, 2) });
    const [weather, looked, other] = ours.choices[0].message.tool_calls!;
    expect(weather.function.parsed_arguments).toEqual({ city: "Lisbon" });
    expect(looked.function.parsed_arguments).toEqual({ q: " as written " });
    const theirCalls = theirs.choices[0]!.message.tool_calls!.map((call) => (call as { function: { parsed_arguments?: unknown } }).function.parsed_arguments);
    expect([weather.function.parsed_arguments, looked.function.parsed_arguments]).toEqual(theirCalls.slice(0, 2));
    // A tool with neither a schema nor strict has nothing to parse by.
    expect(other.function).not.toHaveProperty("parsed_arguments");
    // The tools go out as openai sends them: its helper's JSON Schema, strict.
    expect((sent.modelgate[0]!.tools as unknown[]).slice(0, 2)).toEqual(sent.openai[0]!.tools);
  });

  it("throws StructuredOutputError with Zod's issues, and the ZodError's copy as cause, for an answer the helper's schema rejects", async () => {
    const { modelgate } = twins(reply('{"city":7,"celsius":21}'));
    const error = await modelgate.chat.completions.parse({ model: "m", messages, response_format: zodResponseFormat(Weather, "weather") }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect((error as StructuredOutputError).message).toMatch(/^The answer does not match the schema: city: Invalid input: expected string/);
    expect((error as StructuredOutputError).issues).toEqual([{ message: expect.stringMatching(/expected string/), path: ["city"] }]);
    // The ZodError, as every thrown cause is kept: copied with the API key cut out.
    expect((error as StructuredOutputError).cause).toMatchObject({ name: "ZodError", message: expect.stringMatching(/expected string/) });
    const { modelgate: second } = twins(reply(null, [{ name: "get_weather", arguments: '{"city":null}' }]));
    const bad = await second.chat.completions.parse({ model: "m", messages, tools: [zodFunction({ name: "get_weather", parameters: CityArgs })] }).catch((caught: unknown) => caught);
    expect((bad as Error).message).toMatch(/^The arguments of the "get_weather" call does not match the schema: city: /);
  });

  it('reads the answer by $parseRaw in "tool" mode and at the end of a stream', async () => {
    const format = zodResponseFormat(Weather, "weather");
    const { modelgate, sent } = twins(reply(null, [{ name: "weather", arguments: '{"city":" Oslo ","celsius":-3}' }]));
    const forced = await modelgate.chat.completions.parse({ model: "m", messages, response_format: format }, { structuredOutput: "tool" });
    expect(forced.choices[0].message.parsed).toEqual({ city: "Oslo", celsius: -3 });
    expect((sent.modelgate[0]!.tools as { function: Record<string, unknown> }[])[0]!.function).toMatchObject({ name: "weather", parameters: format.json_schema.schema, strict: true });

    const pieces = ['{"city":" Ro', 'me ","celsius":', "30}"];
    const streaming = recordingClient(() => sseResponse([...pieces.map((piece) => sseData(chunk({ content: piece }))), sseData(chunk({}, { finish: "stop" })), DONE]));
    const stream = await streaming.client.chat.completions.parse({ model: "m", messages, response_format: format, stream: true });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0].message.parsed).toEqual({ city: "Rome", celsius: 30 });
  });

  it("reads $brand and $parseRaw, which openai does not make enumerable, off the caller's object: a copy is a plain json_schema form", async () => {
    const format = zodResponseFormat(Weather, "weather");
    expect(Object.keys(format)).toEqual(["type", "json_schema"]);
    const { modelgate } = twins(reply('{"city":"  Paris ","celsius":21}'));
    const copied = await modelgate.chat.completions.parse({ model: "m", messages, response_format: { ...format } });
    // As under openai: without $parseRaw the JSON is given as it is.
    expect(copied.choices[0].message.parsed).toEqual({ city: "  Paris ", celsius: 21 });
  });
});

describe("a schema without Standard JSON Schema", () => {
  it("is refused with the Zod version to upgrade to, for a Zod 3 schema, in parse() and tool()", async () => {
    const old = z3.object({ city: z3.string() });
    expect(old["~standard"]).toMatchObject({ vendor: "zod", version: 1 });
    const { client, sent } = recordingClient(() => Response.json(reply("{}")));
    const error = await client.chat.completions.parse({ model: "m", messages, response_format: old as never }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelGateError);
    expect((error as Error).message).toMatch(/^`response_format` is a zod schema that offers no JSON Schema \(`~standard\.jsonSchema` is missing\).*Upgrade to Zod 4\.2 or later/);
    expect((error as Error).message).not.toMatch(/valibot/i);
    expect(sent).toHaveLength(0);
    expect(() => tool({ name: "get_weather", parameters: old as never })).toThrow(/^tool\(\) "get_weather": `parameters` is a zod schema .*Upgrade to Zod 4\.2 or later/);
  });

  it("names each library's own way to Standard JSON Schema, and a general one for a library it does not know", () => {
    const schemaOf = (vendor: string) => ({ "~standard": { version: 1, vendor, validate: (value: unknown) => ({ value }) } }) as never;
    expect(() => tool({ name: "t", parameters: schemaOf("valibot") })).toThrow(/Wrap it with toStandardJsonSchema\(\) from @valibot\/to-json-schema/);
    expect(() => tool({ name: "t", parameters: schemaOf("arktype") })).toThrow(/Upgrade to ArkType 2\.1\.28 or later/);
    for (const vendor of ["yup", "constructor", "toString"]) {
      expect(() => tool({ name: "t", parameters: schemaOf(vendor) })).toThrow(/Use a version of the library \(or its adapter\) that implements Standard JSON Schema, or pass jsonSchema/);
    }
    expect(() => tool({ name: "t", parameters: jsonSchema({ type: "object" }) })).not.toThrow();
  });
});
