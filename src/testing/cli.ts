#!/usr/bin/env node
/**
 * The package's command, `npx modelgate mock`: serves the mock gateway of `modelgate/testing`
 * on 127.0.0.1 over Node's HTTP server (`modelgate/testing/node`) until Ctrl-C, and prints on
 * stdout the two lines a program reads it by (`MODELGATE_BASE_URL=…`, `MODELGATE_API_KEY=…`),
 * nothing else: `npx modelgate mock > mock.env` gives a file of them. What it says to a person
 * goes to stderr. Node-only, like the adapter it uses: package.json's `bin` is its only way in,
 * and nothing of the SDK's entries imports it.
 * @module
 */
import { VERSION } from "../version.ts";
import { createMockGateway, MOCK_API_KEY } from "./gateway.ts";
import type { MockGatewayOptions } from "./gateway-types.ts";
import { serveNode, type NodeServer } from "./node.ts";

/** The port `npx modelgate mock` listens on without `--port` (docs/testing.md names it). */
const DEFAULT_PORT = 4010;

const USAGE = `Usage: npx modelgate mock [--port <n>] [--reply <text>] [--chunk-delay <ms>]

Serves modelgate's mock gateway (modelgate/testing) on 127.0.0.1 until Ctrl-C and prints
the two lines a program reads it by:

  MODELGATE_BASE_URL=http://127.0.0.1:${DEFAULT_PORT}
  MODELGATE_API_KEY=${MOCK_API_KEY}

Options:
  --port <n>         the port to listen on; 0 takes any free one (default ${DEFAULT_PORT})
  --reply <text>     answer every chat completion with this text (default: generated replies)
  --chunk-delay <ms> pause between streamed chunks, to watch a stream arrive (default 0)
  -h, --help         print this text
  -v, --version      print modelgate's version
`;

/** The longest delay a timer takes. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What the command line asks for, or the reason it cannot be run. */
type Parsed = { command: "help" } | { command: "version" } | { command: "mock"; port: number; gateway: MockGatewayOptions } | { command: "error"; message: string };

/** Reads `argv` (without node and the script): `mock` and its options, `--help` or `--version`. */
function parseArguments(argv: readonly string[]): Parsed {
  const args = [...argv];
  if (args.length === 0) return { command: "error", message: "no command given (the command is `mock`)" };
  if (args.some((arg) => arg === "-h" || arg === "--help")) return { command: "help" };
  if (args.some((arg) => arg === "-v" || arg === "--version")) return { command: "version" };
  const [command, ...rest] = args;
  if (command !== "mock") return { command: "error", message: `unknown command "${command}" (the command is \`mock\`)` };
  let port = DEFAULT_PORT;
  const gateway: MockGatewayOptions = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    const equals = arg.indexOf("=");
    const name = arg.startsWith("--") && equals > 0 ? arg.slice(0, equals) : arg;
    const inline = arg.startsWith("--") && equals > 0 ? arg.slice(equals + 1) : undefined;
    // The next argument is the value unless it is the next option (`--reply --port 0` lacks a reply).
    const value = (): string | undefined => inline ?? (rest[i + 1]?.startsWith("--") ? undefined : rest[++i]);
    if (name === "--port") {
      const text = value();
      const number = text !== undefined && /^\d+$/.test(text) ? Number(text) : Number.NaN;
      if (!(number >= 0 && number <= 65535)) return { command: "error", message: `--port takes a port number from 0 to 65535, not ${JSON.stringify(text ?? "")}` };
      port = number;
    } else if (name === "--reply") {
      const text = value();
      if (text === undefined) return { command: "error", message: "--reply takes the text to answer with" };
      gateway.reply = text;
    } else if (name === "--chunk-delay") {
      const text = value();
      const ms = text !== undefined && /^\d+$/.test(text) ? Number(text) : Number.NaN;
      // A timer takes at most 2^31 − 1 ms (about 24.8 days); more would silently become 1 ms.
      if (!(ms <= MAX_TIMER_MS)) return { command: "error", message: `--chunk-delay takes milliseconds from 0 to ${MAX_TIMER_MS}, not ${JSON.stringify(text ?? "")}` };
      gateway.chunkDelayMs = ms;
    } else {
      return { command: "error", message: `unknown option ${JSON.stringify(arg)}` };
    }
  }
  return { command: "mock", port, gateway };
}

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseArguments(argv);
  if (parsed.command === "help" || parsed.command === "version") {
    process.stdout.write(parsed.command === "help" ? USAGE : `${VERSION}\n`);
    return 0;
  }
  if (parsed.command === "error") {
    process.stderr.write(`modelgate: ${parsed.message}\n\n${USAGE}`);
    return 2;
  }
  const gateway = createMockGateway(parsed.gateway);
  let server: NodeServer;
  try {
    server = await serveNode(gateway, { port: parsed.port, hostname: "127.0.0.1" });
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const reason = code === "EADDRINUSE" ? `port ${parsed.port} is in use (--port 0 takes any free port)` : error instanceof Error ? error.message : String(error);
    process.stderr.write(`modelgate mock: cannot listen on 127.0.0.1:${parsed.port}: ${reason}\n`);
    return 1;
  }
  // Whoever reads the two lines may go away (`npx modelgate mock | head -1`): the mock serves on.
  process.stdout.on("error", () => {});
  process.stdout.write(`MODELGATE_BASE_URL=${server.url}\nMODELGATE_API_KEY=${MOCK_API_KEY}\n`);
  process.stderr.write(`modelgate mock: the mock gateway is listening on ${server.url} (127.0.0.1 only); set the two variables above in your app's environment. Ctrl-C stops it.\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await server.close();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`modelgate: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
