// How a tool call's `arguments` are read, the same for `runTools()` (which runs the call) and
// for `parse()` and the stream() helper (which check it): a reply one of them accepts the other
// must not refuse.

/**
 * The arguments as the JSON text the wire carries: a string as it is, `null` or none as `"{}"`
 * (no arguments), anything else (an object some providers send) as its JSON; `undefined` when
 * it cannot be JSON (a cycle, a BigInt).
 */
export function argumentsText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "{}";
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/**
 * The value of the arguments' text: blank text (what several servers send for a call of a tool
 * without parameters) is no arguments, `{}`; anything else is what `parseJSON` makes of it
 * (each caller words its own error for text that is not JSON).
 */
export function argumentsValue(text: string, parseJSON: (text: string) => unknown): unknown {
  return text.trim() === "" ? {} : parseJSON(text);
}
