// `model: "auto"` with routing filters: the gateway picks the model and says which in `model`.
import "./offline.ts";
import ModelGate from "modelgate";

const client = new ModelGate();

const completion = await client.chat.completions.create({
  model: "auto",
  route: {
    max_price: { prompt: 1.0, completion: 4.0 }, // USD per million tokens
    min_quality: 0.7,
    capabilities: ["tools"],
    sort: "price",
  },
  messages: [{ role: "user", content: "Summarise the plot of Hamlet in one sentence." }],
});
console.log(`routed to ${completion.model}`);
console.log(completion.choices[0]?.message.content);
