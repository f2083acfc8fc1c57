export { ModelGateError } from "./modelgate-error.ts";
export { APIError, type APIErrorInit } from "./api-error.ts";
export {
  BadRequestError,
  AuthenticationError,
  PaymentRequiredError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
  RateLimitError,
  InternalServerError,
  apiErrorForStatus,
} from "./status-errors.ts";
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  abortError,
} from "./connection-errors.ts";
export { errorFromBody, errorFromBridgeFrame, errorFromStreamEvent, isErrorDocument, parseBody, unexpectedBodyError, type ErrorContext } from "./from-body.ts";
