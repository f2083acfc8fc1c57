import { argumentError, invalidArgument } from "../errors/invalid-argument.ts";

const WHERE = "decodeDataURL()";

/** What a `data:` URL holds. */
export interface DecodedDataURL {
  /** The media type as written, without `;base64`: `image/png`; `text/plain;charset=US-ASCII` when the URL names none. */
  mediaType: string;
  bytes: Uint8Array;
}

/**
 * The bytes of a `data:` URL, as generated images and audio arrive (`message.images[0].image_url.url`):
 * `const { mediaType, bytes } = decodeDataURL(url)`. Base64 and percent-encoded forms are read
 * (RFC 2397, with the WHATWG rules: whitespace in base64 is skipped, padding may be left out).
 * Linear in the URL's length, so a 5 MB image decodes in milliseconds.
 * @throws ModelGateError for anything but a well-formed `data:` URL, an `https:` URL included
 *   (fetch that one instead).
 */
export function decodeDataURL(url: string): DecodedDataURL {
  if (typeof url !== "string") throw invalidArgument("url", "a data: URL string", url, WHERE);
  // As a URL parser reads it: no leading or trailing controls and spaces, no tabs or line
  // breaks anywhere, and no fragment.
  url = url.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "");
  const hash = url.indexOf("#");
  if (hash !== -1) url = url.slice(0, hash);
  if (!/^data:/i.test(url)) {
    const scheme = /^([a-z][a-z\d+.-]*):/i.exec(url)?.[1];
    if (scheme) throw argumentError("url", `must be a data: URL; got a ${scheme}: URL, which has to be downloaded (fetch it)`, WHERE);
    throw invalidArgument("url", "a data: URL", url, WHERE);
  }
  const comma = url.indexOf(",");
  if (comma === -1) throw argumentError("url", "has no comma between its media type and its data", WHERE);
  const header = url.slice(5, comma).trim();
  const base64 = /;\s*base64\s*$/i.test(header);
  const written = (base64 ? header.replace(/;\s*base64\s*$/i, "") : header).trim();
  const mediaType = written === "" || written.startsWith(";") ? `text/plain${written || ";charset=US-ASCII"}` : written;
  const data = url.slice(comma + 1);
  return { mediaType, bytes: base64 ? fromBase64(data) : fromPercentEncoded(data) };
}

function fromBase64(data: string): Uint8Array {
  // Percent-escapes are allowed in any URL, base64 included; whitespace is skipped.
  const text = (data.includes("%") ? decodeURIComponentSafe(data) : data).replace(/[\t\n\f\r ]+/g, "");
  // Forgiving base64: `=` pads a whole number of quads or is not there at all, and one
  // character past a quad is never valid (atob would throw a DOMException for some of these).
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1 || (text.endsWith("=") && text.length % 4 !== 0)) {
    throw argumentError("url", "holds data that is not valid base64", WHERE);
  }
  const binary = atob(text.length % 4 === 0 ? text : text + "=".repeat(4 - (text.length % 4)));
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

function fromPercentEncoded(data: string): Uint8Array {
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let index = 0; index < data.length; index++) {
    const char = data[index] as string;
    if (char === "%" && /^[\da-f]{2}$/i.test(data.slice(index + 1, index + 3))) {
      bytes.push(parseInt(data.slice(index + 1, index + 3), 16));
      index += 2;
    } else {
      const code = data.codePointAt(index) as number;
      if (code > 0x7f) {
        bytes.push(...encoder.encode(String.fromCodePoint(code)));
        if (code > 0xffff) index++;
      } else bytes.push(code);
    }
  }
  return Uint8Array.from(bytes);
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw argumentError("url", "has a malformed percent-escape", WHERE);
  }
}
