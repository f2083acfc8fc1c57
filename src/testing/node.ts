/**
 * modelgate/testing/node: serves a Fetch-API handler (such as the mock gateway) over Node's
 * HTTP server, for tests and examples that need a real socket. The only module of the
 * package that imports `node:*`, kept out of the main and browser entry points.
 * @module
 */
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";

/** A Fetch-API request handler: `createMockGateway()` or any `(request) => Response`. */
export type FetchHandler = (request: Request) => Response | Promise<Response>;

/** A running server; `close()` stops it and drops every open connection. */
export interface NodeServer {
  /** The origin to use as `baseURL`, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** The port listened on (the one chosen by the system when `port` was 0). */
  port: number;
  /** Stops listening and closes every open connection, streams in progress included. */
  close(): Promise<void>;
}

/** Where to listen. */
export interface ServeNodeOptions {
  /** @default 0 (any free port) */
  port?: number;
  /** @default "127.0.0.1" (loopback only, so a test server is never reachable from the network) */
  hostname?: string;
}

/**
 * Serves `handler` until `close()`. Each request becomes a `Request` whose `signal` aborts
 * when the client goes away; the `Response` body is written as it is produced, waiting for
 * the socket to drain (backpressure). When the body errors the socket is closed without
 * finishing the response, so the client sees a cut connection rather than a short answer;
 * when the client leaves, the body is cancelled so the handler stops producing.
 */
export async function serveNode(handler: FetchHandler, options: ServeNodeOptions = {}): Promise<NodeServer> {
  const hostname = options.hostname ?? "127.0.0.1";
  let origin = "";
  const server = createServer((incoming, outgoing) => {
    void respond(handler, incoming, outgoing, origin);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, hostname, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? 0);
  origin = `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
  return {
    url: origin,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        // close() alone waits for open connections, and a stalled stream never ends by itself.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function respond(handler: FetchHandler, incoming: IncomingMessage, outgoing: ServerResponse, origin: string): Promise<void> {
  const disconnected = new AbortController();
  // The response closing before it finished means the client went away.
  outgoing.once("close", () => {
    if (!outgoing.writableFinished) disconnected.abort(new DOMException("The client disconnected.", "AbortError"));
  });

  let response: Response;
  try {
    response = await handler(await toRequest(incoming, origin, disconnected.signal));
  } catch (error) {
    if (disconnected.signal.aborted || outgoing.headersSent) return void outgoing.destroy();
    const message = error instanceof Error ? error.message : String(error);
    outgoing.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end(`The handler failed: ${message}`);
    return;
  }

  outgoing.writeHead(response.status, toNodeHeaders(response.headers));
  if (!response.body) return void outgoing.end();
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel(disconnected.signal.reason).catch(() => {});
  disconnected.signal.addEventListener("abort", cancel, { once: true });
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (!outgoing.write(value)) await drainedOrClosed(outgoing);
    }
    if (!disconnected.signal.aborted) outgoing.end();
  } catch {
    cutConnection(outgoing);
  } finally {
    disconnected.signal.removeEventListener("abort", cancel);
  }
}

/**
 * Ends the connection mid-response, as a dying upstream does: what was written still goes
 * out (end() flushes it), but the chunked encoding's last chunk never comes, then the socket
 * is destroyed so no keep-alive reuse can follow.
 */
function cutConnection(outgoing: ServerResponse): void {
  const { socket } = outgoing;
  if (!socket || socket.destroyed) return void outgoing.destroy();
  socket.end(() => socket.destroy());
}

async function toRequest(incoming: IncomingMessage, origin: string, signal: AbortSignal): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = incoming.method ?? "GET";
  const body = method === "GET" || method === "HEAD" ? undefined : await readAll(incoming);
  // The server's own origin, not the Host header: a client-chosen Host must not change the URL.
  return new Request(new URL(incoming.url ?? "/", origin), { method, headers, body, signal });
}

function readAll(incoming: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    incoming.on("data", (part: Buffer) => parts.push(part));
    incoming.on("end", () => resolve(new Uint8Array(Buffer.concat(parts))));
    incoming.on("error", reject);
    // A client that leaves mid-upload: "end" never comes (a no-op once it has).
    incoming.on("close", () => reject(new Error("The client closed the connection before the request body ended.")));
  });
}

/** Fetch headers for Node, keeping each `set-cookie` separate as HTTP requires. */
function toNodeHeaders(headers: Headers): OutgoingHttpHeaders {
  const result: OutgoingHttpHeaders = Object.fromEntries(headers);
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) result["set-cookie"] = cookies;
  return result;
}

/** Waits until the socket wants more, or is gone (a "drain" that will never come). */
function drainedOrClosed(outgoing: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off("drain", done);
      outgoing.off("close", done);
      resolve();
    };
    outgoing.on("drain", done);
    outgoing.on("close", done);
  });
}
