/**
 * What a thrown value says, for an error's message: runtimes hide the socket-level reason
 * (ECONNREFUSED, "other side closed") in `cause`, so it is named too. A getter (or a Proxy
 * trap) that throws, reading it, is not let out: its own error may quote the key.
 */
export function describeCause(error: unknown): string {
  try {
    // A plain object thrown as an error (`{ code: "ECONNRESET", message }`) says its message, not "[object Object]".
    if (!(error instanceof Error)) return typeof (error as { message?: unknown } | null)?.message === "string" ? (error as { message: string }).message : String(error);
    return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : String(error.message);
  } catch {
    return "(a thrown value that could not be read)";
  }
}
