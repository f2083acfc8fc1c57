import { gatewayInfo, type GatewayInfo } from "../gateway/info.ts";
import { ModelGateError } from "./modelgate-error.ts";

/**
 * What the SDK learned about a failed exchange: built by `errorFromBody` from what the server
 * sent, and the second argument of the `APIError` constructors (e.g. to build one in a test:
 * `new RateLimitError(429, { message: "slow down" })`).
 */
export interface APIErrorInit {
  /** The server's own message, or an excerpt of a body that was not JSON. */
  message: string;
  /** The inner `error` object of the body when it has one, else the whole parsed body (or its text). */
  error?: unknown;
  code?: string | number | null | undefined;
  type?: string | null | undefined;
  param?: string | null | undefined;
  headers?: Headers | undefined;
  requestID?: string | null | undefined;
  cause?: unknown;
}

/**
 * An HTTP exchange that failed: a non-2xx answer (a status subclass such as `RateLimitError`),
 * an error reported inside a stream, or no usable answer at all (`APIConnectionError`,
 * `APIConnectionTimeoutError`, `APIUserAbortError`, which have no `status`).
 */
export class APIError extends ModelGateError {
  /** `"APIError"`: the class name, as `err.name` and stack traces show it. */
  override name = "APIError";
  /**
   * HTTP status of the response; `undefined` when no response arrived. Subclasses narrow it
   * (`RateLimitError` has `429`). Deliberately not a type parameter: `error instanceof APIError`
   * narrows a generic class to `APIError<any>`, which would make `status` an `any` that
   * compiles as a string.
   */
  declare readonly status: number | undefined;
  /** Response headers; `undefined` when no response arrived. */
  declare readonly headers: Headers | undefined;
  /** The body's inner `error` object when it has one, else the whole parsed body. */
  declare readonly error: unknown;
  /** Provider or gateway error code, e.g. `"invalid_api_key"` or `429`. */
  declare readonly code: string | number | null;
  /** Error type, e.g. `"invalid_request_error"`. */
  declare readonly type: string | null;
  /** The request parameter the error is about, when the server names one. */
  declare readonly param: string | null;
  /** The `x-request-id` response header: quote it when reporting a problem. */
  declare readonly requestID: string | null;
  /**
   * What the gateway had done when the call failed: the model asked for, the attempts made
   * (retries included), the request and generation ids; for a stream that failed part-way,
   * also the model that was answering and the usage so far.
   */
  declare readonly gateway: GatewayInfo;

  /**
   * An error answer: the SDK builds these from what the server sent; build one yourself in a
   * test or a middleware (`new RateLimitError(429, { message: "Slow down." })`). `status` is the
   * HTTP status (`undefined` for one that had none); `init` holds the message and the body's fields.
   */
  constructor(status: number | undefined, init: APIErrorInit) {
    // The message states the status once: in front, unless the server's words already start
    // with it ("429 Too Many Requests"), or an error rebuilt from another kept its prefix.
    const { message } = init;
    super(status === undefined || message.split(/\D/, 1)[0] === `${status}` ? message : `${status} ${message}`, { cause: init.cause });
    this.status = status;
    this.headers = init.headers;
    this.error = init.error;
    this.code = init.code ?? null;
    this.type = init.type ?? null;
    this.param = init.param ?? null;
    this.requestID = init.requestID ?? null;
    this.gateway = gatewayInfo(undefined, init.headers, 0);
  }
}
