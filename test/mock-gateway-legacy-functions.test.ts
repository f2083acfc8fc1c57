import { describe, expect, it } from "vitest";
import type { ChatCompletion } from "../src/index.ts";
import { validatorFor } from "./fixtures/json-schema-validator.ts";
import { mockClient, mockGateway, parseEventStream } from "./fixtures/mock.ts";

// OpenAI's deprecated function calling at the mock (API.md, "Coming from openai-node"):
// `functions` and `function_call` are served as tools are, and answered in the legacy shape,
// `message.function_call` with `finish_reason: "function_call"`.

const weather = {
  name: "get_weather",
  description: "The weather in a city",
  parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer", minimum: 1, maximum: 7 } }, required: ["city", "days"], additionalProperties: false },
};
const clock = { name: "current_time", parameters: { type: "object", properties: {} } };

async function completion(response: Response): Promise<ChatCompletion> {
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as ChatCompletion;
}

describe("mock gateway: legacy functions", () => {
  it("answers with one message.function_call whose arguments follow the function's schema, and finish_reason function_call", async () => {
    const reply = await completion(await mockGateway().chat({ model: "auto", functions: [weather, clock] }));
    const [choice] = reply.choices;
    expect(choice!.finish_reason).toBe("function_call");
    expect(choice!.message.tool_calls).toBeUndefined();
    expect(choice!.message.function_call!.name).toBe("get_weather");
    expect(validatorFor(weather.parameters)(JSON.parse(choice!.message.function_call!.arguments))).toEqual([]);
  });

  it("calls the function function_call names, and none for function_call none", async () => {
    const forced = await completion(await mockGateway().chat({ model: "auto", functions: [weather, clock], function_call: { name: "current_time" } }));
    expect(forced.choices[0]!.message.function_call).toEqual({ name: "current_time", arguments: "{}" });
    const none = await completion(await mockGateway().chat({ model: "auto", functions: [weather], function_call: "none" }));
    expect(none.choices[0]!.message.function_call).toBeUndefined();
    expect(none.choices[0]!.finish_reason).toBe("stop");
  });

  it("answers a function's result, sent back as a function message, with a text that quotes it", async () => {
    const reply = await completion(
      await mockGateway().chat({
        model: "auto",
        functions: [weather],
        messages: [
          { role: "user", content: "Weather in Oslo?" },
          { role: "assistant", content: null, function_call: { name: "get_weather", arguments: '{"city":"Oslo","days":1}' } },
          { role: "function", name: "get_weather", content: "sunny, 21 C" },
        ],
      }),
    );
    expect(reply.choices[0]!.finish_reason).toBe("stop");
    expect(reply.choices[0]!.message.content).toBe("Here is what the tools found: get_weather returned sunny, 21 C.");
  });

  it("streams the call as delta.function_call fragments, the name first, whose arguments join to the schema's JSON", async () => {
    const response = await mockGateway().chat({ model: "auto", functions: [weather], stream: true });
    const { chunks, done } = parseEventStream(await response.text());
    expect(done).toBe(true);
    const fragments = chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.function_call).filter((call) => call !== undefined));
    expect(fragments[0]).toEqual({ name: "get_weather", arguments: "" });
    expect(fragments.length).toBeGreaterThan(1);
    expect(chunks.some((chunk) => chunk.choices.some((choice) => choice.delta.tool_calls !== undefined))).toBe(false);
    expect(validatorFor(weather.parameters)(JSON.parse(fragments.map((call) => call!.arguments).join("")))).toEqual([]);
    expect(chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.finish_reason)).filter(Boolean)).toEqual(["function_call"]);
  });

  it("reaches a client unchanged: create() gives message.function_call", async () => {
    const { client } = mockClient();
    const reply = await client.chat.completions.create({ model: "auto", messages: [{ role: "user", content: "Time?" }], functions: [clock], function_call: { name: "current_time" } });
    expect(reply.choices[0]!.message.function_call).toEqual({ name: "current_time", arguments: "{}" });
  });

  it("reaches a client streamed: finalChatCompletion() gives the same message.function_call as create()", async () => {
    const { client } = mockClient();
    const params = { model: "auto", messages: [{ role: "user" as const, content: "Weather?" }], functions: [weather], function_call: { name: "get_weather" } };
    const whole = await client.chat.completions.create(params);
    const streamed = await (await client.chat.completions.create({ ...params, stream: true })).finalChatCompletion();
    expect(streamed.choices[0]!.message.function_call!.name).toBe("get_weather");
    expect(streamed.choices[0]!.message).toEqual({ ...whole.choices[0]!.message, function_call: streamed.choices[0]!.message.function_call });
    expect(validatorFor(weather.parameters)(JSON.parse(streamed.choices[0]!.message.function_call!.arguments))).toEqual([]);
    expect(streamed.choices[0]!.finish_reason).toBe("function_call");
  });

  it.each([
    ["functions beside tools", { functions: [weather], tools: [{ type: "function", function: clock }] }, "functions"],
    ["an empty functions list", { functions: [] }, "functions"],
    ["a function without a name", { functions: [{ parameters: {} }] }, "functions[0].name"],
    ["function_call naming no function", { functions: [weather], function_call: { name: "nope" } }, "function_call"],
    ["function_call without functions", { function_call: "auto" }, "function_call"],
    ["a function message without a name", { functions: [weather], messages: [{ role: "function", content: "x" }] }, "messages[0].name"],
    ["a function_call without arguments", { functions: [weather], messages: [{ role: "assistant", content: null, function_call: { name: "get_weather" } }] }, "messages[0].function_call"],
  ])("answers 400 naming the field for %s", async (_name, extra, param) => {
    const response = await mockGateway().chat({ model: "auto", ...extra });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { param: string } }).error.param).toBe(param);
  });
});
