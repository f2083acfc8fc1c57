/**
 * `bytes` as base64, with `btoa`, the one encoder every supported runtime has (no `Buffer`
 * outside Node). `btoa` takes a binary string, built in slices because spreading a large
 * array into `String.fromCharCode` overflows the call stack.
 */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}
