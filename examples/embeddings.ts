// Embeddings: one vector per text. Texts that mean alike get vectors that point alike, which
// the cosine of the angle between them measures (1: the same direction, 0: unrelated).
import "./offline.ts";
import ModelGate from "modelgate";

const client = new ModelGate();

const sentences = ["The cat sat on the mat.", "A kitten was sitting on the rug."];
const { data, model, usage } = await client.embeddings.create({ model: "openai/text-embedding-3-small", input: sentences });
const [first, second] = data.map((entry) => entry.embedding);

function cosineSimilarity(a: number[], b: number[]): number {
  let dot = 0;
  let lengthA = 0;
  let lengthB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    lengthA += a[i]! ** 2;
    lengthB += b[i]! ** 2;
  }
  return dot / Math.sqrt(lengthA * lengthB);
}

console.log(`${model}: ${data.length} vectors of ${first!.length} dimensions, ${usage.total_tokens} tokens`);
// (The mock gateway's vectors are random, so offline the two sentences look unrelated: about 0.)
console.log(`cosine similarity: ${cosineSimilarity(first!, second!).toFixed(4)}`);
