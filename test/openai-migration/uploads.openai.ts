// Uploads: audio from disk as fs.createReadStream() and through toFile(), a translation, an
// image edit, and a streamed image generation.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI, { toFile } from 'openai';

const client = new OpenAI({
  apiKey: process.env['OPENAI_API_KEY'],
});

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'uploads-'));
const speech = path.join(folder, 'speech.wav');
const picture = path.join(folder, 'lamp.png');
fs.writeFileSync(speech, Buffer.from('RIFF$\u0000\u0000\u0000WAVEfmt '));
fs.writeFileSync(picture, Buffer.alloc(64, 7));

const transcription = await client.audio.transcriptions.create({
  model: 'whisper-1',
  file: fs.createReadStream(speech),
});
console.log(`transcription: ${transcription.text}`);

const translation = await client.audio.translations.create({
  model: 'whisper-1',
  file: await toFile(fs.createReadStream(speech), 'speech.wav'),
});
console.log(`translation: ${translation.text}`);

const edited = await client.images.edit({
  model: 'gpt-image-1',
  image: await toFile(fs.createReadStream(picture), 'lamp.png', { type: 'image/png' }),
  prompt: 'Make the lamp blue',
  response_format: 'b64_json',
});
console.log(`edited: ${edited.data?.[0]?.b64_json?.length}`);

const stream = await client.images.generate({
  model: 'gpt-image-1',
  prompt: 'A lamp at night',
  stream: true,
  partial_images: 1,
});
for await (const event of stream) {
  console.log(`${event.type}: ${event.b64_json.length}`);
}

fs.rmSync(folder, { recursive: true });
