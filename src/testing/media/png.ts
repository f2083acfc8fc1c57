import { toBase64 } from "./base64.ts";

/** The 2×2 picture the mock "generates": teal, coral / gold, navy, as RGB rows. */
const PIXELS = [
  [0x1a, 0x9e, 0x9a, 0xf2, 0x6b, 0x5b],
  [0xf2, 0xc1, 0x4e, 0x1d, 0x35, 0x57],
];

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The grey a partial image starts from, before the colours come in. */
const GREY = 0x80;

let cached: Uint8Array<ArrayBuffer> | undefined;

/**
 * A small valid PNG (2×2, 8-bit RGB), built from bytes rather than stored as an opaque
 * string, so every field a decoder checks — signature, IHDR, the zlib stream and its Adler-32,
 * each chunk's CRC-32 — is visibly right. Built once; callers must not change the bytes.
 */
export function mockPNG(): Uint8Array<ArrayBuffer> {
  cached ??= encodePNG(PIXELS);
  return cached;
}

/**
 * Partial image `index` of `count` of a streamed generation: the mock's picture faded toward
 * grey, less with each partial (the first is the faintest), so every partial is a valid PNG
 * of the final size that differs from the others and from the final image.
 */
export function partialPNG(index: number, count: number): Uint8Array<ArrayBuffer> {
  const weight = (index + 1) / (count + 1);
  return encodePNG(PIXELS.map((row) => row.map((value) => Math.round(GREY + (value - GREY) * weight))));
}

/** `rows` of RGB values as a PNG: width, height, depth 8, colour type 2 (RGB), no interlace. */
function encodePNG(rows: readonly number[][]): Uint8Array<ArrayBuffer> {
  const header = [...u32(rows[0]!.length / 3), ...u32(rows.length), 8, 2, 0, 0, 0];
  // Each row starts with its filter type, 0 (None).
  const raw = rows.flatMap((row) => [0, ...row]);
  return new Uint8Array([...SIGNATURE, ...chunk("IHDR", header), ...chunk("IDAT", zlibStored(raw)), ...chunk("IEND", [])]);
}

/** The PNG as the `data:` URL a gateway puts in `message.images`. */
export function pngDataURL(): string {
  return `data:image/png;base64,${toBase64(mockPNG())}`;
}

/** A PNG chunk: length, type, data, and the CRC-32 of type and data. */
function chunk(type: string, data: number[]): number[] {
  const typed = [...type].map((char) => char.charCodeAt(0)).concat(data);
  return [...u32(data.length), ...typed, ...u32(crc32(typed))];
}

/**
 * `data` as a zlib stream (RFC 1950) holding one stored DEFLATE block (RFC 1951: BFINAL set,
 * no compression), the simplest stream a PNG decoder must accept. Fine for under 64 KiB.
 */
function zlibStored(data: number[]): number[] {
  const length = data.length;
  // 0x78 0x01: deflate with a 32 KiB window, lowest compression level; the pair is a multiple of 31 as required.
  return [0x78, 0x01, 0x01, length & 0xff, length >>> 8, ~length & 0xff, (~length >>> 8) & 0xff, ...data, ...u32(adler32(data))];
}

function adler32(data: number[]): number {
  let a = 1;
  let b = 0;
  for (const byte of data) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** CRC-32 as PNG (and zip, and Ethernet) computes it: reflected polynomial 0xEDB88320. */
function crc32(data: ArrayLike<number>): number {
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) {
    crc ^= data[i]!;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** Big-endian, as every PNG number is. */
function u32(value: number): number[] {
  return [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];
}
