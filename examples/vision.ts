// Vision input: an image part in the user message (auto routing then needs a vision model).
import "./offline.ts";
import ModelGate from "modelgate";

const client = new ModelGate();

const completion = await client.chat.completions.create({
  model: "auto",
  messages: [
    {
      role: "user",
      content: [
        { type: "text", text: "What is in this picture?" },
        { type: "image_url", image_url: { url: "https://upload.example/cat.png", detail: "low" } },
      ],
    },
  ],
});
console.log(`routed to ${completion.model} (a vision model)`);
console.log(completion.choices[0]?.message.content);
