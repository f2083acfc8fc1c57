/** What the mock's audio is: 50 ms of a 440 Hz tone, mono 16-bit PCM at 8 kHz. */
const SAMPLE_RATE = 8_000;
const SAMPLES = 400;
const FREQUENCY = 440;
/** Half of full scale: loud enough to hear, far from clipping. */
const AMPLITUDE = 16_384;

let cachedPCM: Uint8Array<ArrayBuffer> | undefined;
let cachedWAV: Uint8Array<ArrayBuffer> | undefined;

/** The tone as raw samples: little-endian signed 16-bit, what `pcm16` means. Built once; do not change it. */
export function mockPCM16(): Uint8Array<ArrayBuffer> {
  if (cachedPCM) return cachedPCM;
  const bytes = new Uint8Array(SAMPLES * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < SAMPLES; i++) view.setInt16(i * 2, Math.round(AMPLITUDE * Math.sin((2 * Math.PI * FREQUENCY * i) / SAMPLE_RATE)), true);
  cachedPCM = bytes;
  return bytes;
}

/**
 * The tone as a valid WAV file: the 44-byte RIFF header of canonical PCM (a `fmt ` chunk of
 * 16 bytes, then `data`) before the samples. Built once; do not change it.
 */
export function mockWAV(): Uint8Array<ArrayBuffer> {
  if (cachedWAV) return cachedWAV;
  const pcm = mockPCM16();
  const bytes = new Uint8Array(44 + pcm.length);
  const view = new DataView(bytes.buffer);
  const text = (at: number, value: string) => [...value].forEach((char, i) => view.setUint8(at + i, char.charCodeAt(0)));
  text(0, "RIFF");
  view.setUint32(4, 36 + pcm.length, true); // the size of what follows these 8 bytes
  text(8, "WAVE");
  text(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, SAMPLE_RATE, true);
  view.setUint32(28, SAMPLE_RATE * 2, true); // bytes per second
  view.setUint16(32, 2, true); // bytes per sample frame
  view.setUint16(34, 16, true); // bits per sample
  text(36, "data");
  view.setUint32(40, pcm.length, true);
  bytes.set(pcm, 44);
  cachedWAV = bytes;
  return bytes;
}
