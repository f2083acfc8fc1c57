// Tool calling round trip: the model asks for a tool, we run it, and send the result back.
import "./offline.ts";
import ModelGate, { type ChatCompletionMessageParam, type ChatCompletionTool } from "modelgate";

const client = new ModelGate();

const tools: ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "Current weather for a city",
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
        required: ["city"],
      },
    },
  },
];

function getWeather(args: { city: string; unit?: string }) {
  return { city: args.city, temperature: 21, unit: args.unit ?? "celsius", sky: "clear" };
}

const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "What's the weather in Lisbon?" }];
const first = await client.chat.completions.create({ model: "auto", messages, tools });
const call = first.choices[0]?.message.tool_calls?.[0];
if (!call) throw new Error("expected the model to call a tool");
console.log(`model ${first.model} called ${call.function.name}(${call.function.arguments})`);

messages.push(first.choices[0]!.message);
messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(getWeather(JSON.parse(call.function.arguments))) });

const second = await client.chat.completions.create({ model: "auto", messages, tools });
console.log(second.choices[0]?.message.content);
