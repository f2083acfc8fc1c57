// Running a call's request: attempt after attempt until `nextStep` says to return or to throw,
// carrying out each step between them (a retry after its wait, a new key after a 401, a
// smaller request after a 402). Building the request is build-request.ts.
import { APIUserAbortError, errorFromBody, isErrorDocument, parseBody } from "../errors/index.ts";
import { loadBudget } from "./loader.ts";
import { logDebug, type DebugLine } from "../logging/debug-lines.ts";
import type { Outcome } from "./api-promise.ts";
import { attempt, type Exchange } from "./attempt.ts";
import { buildRequest } from "./build-request.ts";
import { decodeSuccess, errorContext } from "./decode-success.ts";
import { waitBeforeRetry } from "./limits.ts";
import { nextStep, type AttemptOutcome } from "./next-step.ts";
import type { PipelineConfig, Progress, RequestSpec } from "./request.ts";

/** Builds the call's request and sends it until it has an answer or an error to give. */
export async function runRequest<T>(config: PipelineConfig, spec: RequestSpec, progress: Progress): Promise<Outcome<T>> {
  const request = buildRequest(config, spec, progress);
  const { options, kind, url, state } = request;
  const keySource = config.apiKey;
  let key: string | undefined;
  let headers: Headers | undefined;
  /** The key already asked for after a 401 (or by the trace, before the first attempt), for the attempt that follows. */
  let newKey: string | undefined = progress.key;

  for (;;) {
    const nextKey = typeof keySource === "string" ? keySource : (newKey ?? (await request.askForKey()));
    newKey = undefined;
    if (!headers || nextKey !== key) headers = request.headersFor((key = nextKey));
    if (state.retries > 0) headers.set("x-modelgate-retry-count", String(state.retries));
    if (config.debug) debugLine(config, ["request", spec.method, url, state.retries + 1, headers]);
    progress.attempts++;
    let exchange: Exchange | undefined;
    let outcome: AttemptOutcome;
    try {
      exchange = await attempt({
        fetch: request.fetch,
        url,
        init: { ...config.fetchOptions, ...options.fetchOptions, method: spec.method, headers, body: request.body ?? null, ...request.duplex },
        timeoutMs: request.timeoutMs,
        signal: options.signal,
        kind,
        idleTimeoutMs: config.streamIdleTimeout,
        redact: config.redact,
      });
      const { response } = exchange;
      if (config.debug) debugLine(config, ["response", spec.method, url, response]);
      outcome = !response.ok ? { ok: false, error: errorFromBody(response.status, parseBody(exchange.text), errorContext(response, config)) } : (kind === "sse" || kind === "json") && exchange.text !== undefined ? errorDocumentOrOK(exchange.text, response, config) : OK;
    } catch (error) {
      outcome = { ok: false, error };
    }

    let step = nextStep(outcome, state);
    if (step.do === "return") return decodeSuccess<T>(exchange as Exchange, config, spec, progress.attempts, kind);
    // A re-send with a change is made only if the change changes the request; else the
    // decision is asked again without it.
    if (step.do === "new-key") {
      state.mayAskForNewKey = false;
      if ((newKey = await request.askForKey()) !== key) continue;
      step = nextStep(outcome, state);
    } else if (step.do === "shrink") {
      state.mayShrink = false;
      const budget = await loadBudget({ signal: options.signal, timeout: request.timeoutMs }).catch((loadError: unknown) => {
        // The 402 is the answer the call has: a request was sent, so the error is not the
        // loader's "nothing was sent" (nor its timeout), but the 402, saying why no smaller
        // request followed, the loader's error as its cause. The caller's abort stays an abort.
        if (loadError instanceof APIUserAbortError || !exchange) throw loadError;
        const note = "(`shrinkToAffordable` sent no smaller request: its code could not be loaded; see `cause`.)";
        throw Object.assign(errorFromBody(exchange.response.status, parseBody(exchange.text), { ...errorContext(exchange.response, config), note }), { cause: loadError });
      });
      const smaller = budget.withMaxTokens(spec.body, step.tokens);
      if (smaller) {
        request.shrinkTo(smaller, headers);
        if (config.debug) debugLine(config, ["shrink", step.tokens]);
        continue;
      }
      step = nextStep(outcome, state);
    }
    const error = (outcome as { error: Error }).error;
    if (step.do === "retry") {
      if (config.debug) debugLine(config, ["retry", step.afterMs, error.message]);
      await waitBeforeRetry(step.afterMs, options.signal);
      state.retries++;
      continue;
    }
    // Built again with the note, which goes through the same redaction as the server's words.
    // (A 200's error document takes its status from its code, as it did the first time.)
    throw step.do === "throw" && step.note && exchange ? errorFromBody(exchange.response.ok ? undefined : exchange.response.status, parseBody(exchange.text), { ...errorContext(exchange.response, config), note: step.note }) : error;
  }
}

const OK: AttemptOutcome = { ok: true };

/** The JSON string `"error"` with any of its letters written as a `\u` escape. */
const ESCAPED_ERROR_KEY = /"(?:e|\\u0065)(?:r|\\u0072)(?:r|\\u0072)(?:o|\\u006[fF])(?:r|\\u0072)"/;

/**
 * A whole JSON body answered with a 2xx, to a JSON request or in place of a stream: an error
 * document is the error it describes, retried by its code's class as that status would be
 * (API.md, Stream and Errors); anything else is for `decodeSuccess` to read or refuse. Only a
 * body that names `"error"` can be one, written as it is or with JSON escapes for its letters
 * (`"\u0065rror"`), so an answer is parsed here only when it holds either (an answer merely
 * holding escapes, as a gateway in Python writes every non-ASCII character, is not parsed twice).
 */
function errorDocumentOrOK(text: string, response: Response, config: PipelineConfig): AttemptOutcome {
  if (!text.includes('"error"') && !(text.includes("\\u") && ESCAPED_ERROR_KEY.test(text))) return OK;
  const body = parseBody(text);
  return isErrorDocument(body) ? { ok: false, error: errorFromBody(undefined, body, errorContext(response, config)) } : OK;
}

/** Logs a debug line (`logLevel: "debug"`). */
function debugLine(config: PipelineConfig, line: DebugLine): void {
  logDebug(config.log, line, config.redact);
}
