/**
 * modelgate/testing/node: serves a Fetch-API handler (such as the mock gateway) over Node's
 * HTTP server, for tests and examples that need a real socket. The only module of the
 * package that imports `node:*`, kept out of the main and browser entry points.
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

/** A running server; `close()` stops it and drops every open connection. */
export interface NodeServer {
  /** e.g. `http://127.0.0.1:41234` */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Where to listen. */
export interface ServeNodeOptions {
  /** @default 0 (any free port) */
  port?: number;
  /** @default "127.0.0.1" (loopback only) */
  hostname?: string;
}

/** Serves `handler` until `close()`. */
export async function serveNode(
  handler: (request: Request) => Response | Promise<Response>,
  options: ServeNodeOptions = {},
): Promise<NodeServer> {
  const hostname = options.hostname ?? "127.0.0.1";
  const server = createServer((incoming, outgoing) => {
    respond(handler, incoming, outgoing, hostname).catch(() => outgoing.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, hostname, resolve);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://${hostname}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function respond(
  handler: (request: Request) => Response | Promise<Response>,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  hostname: string,
): Promise<void> {
  // Aborted when the client goes away, so a handler waiting on a delay can stop.
  const disconnected = new AbortController();
  outgoing.on("close", () => {
    if (!outgoing.writableFinished) disconnected.abort();
  });

  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const method = incoming.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const body = hasBody ? await readAll(incoming) : undefined;
  const request = new Request(`http://${incoming.headers.host ?? hostname}${incoming.url ?? "/"}`, {
    method,
    headers,
    body,
    signal: disconnected.signal,
  });

  const response = await handler(request);
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  disconnected.signal.addEventListener("abort", () => reader.cancel().catch(() => {}), { once: true });
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      // Backpressure: wait for the socket to drain before reading more from the handler.
      if (!outgoing.write(value)) await new Promise<void>((resolve) => outgoing.once("drain", resolve));
    }
    outgoing.end();
  } catch {
    // The body failed (e.g. the mock's "cut" fault): close the connection without finishing
    // the chunked encoding, as a dying upstream would, after what was written got out.
    await new Promise((resolve) => setImmediate(resolve));
    if (outgoing.socket) outgoing.socket.end();
    else outgoing.destroy();
  }
}

function readAll(incoming: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    incoming.on("data", (part: Buffer) => parts.push(part));
    incoming.on("end", () => resolve(new Uint8Array(Buffer.concat(parts))));
    incoming.on("error", reject);
  });
}
