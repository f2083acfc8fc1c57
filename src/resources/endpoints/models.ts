import { invalidArgument, outcomeOf, type Outcome, type Requester } from "../../core.ts";
import type { CallOptions } from "./checks.ts";

/** `client.models.list()`: `GET /v1/models`, the whole catalogue in one answer. */
export function listModels(client: Requester, options: CallOptions): Promise<Outcome<unknown>> {
  return outcomeOf(client.request({ method: "GET", path: "/v1/models", options }), false);
}

/**
 * `client.models.retrieve()`: `GET /v1/models/{id}`. Ids such as `openai/gpt-4.1-mini` contain a
 * slash, so the id is path-encoded.
 */
export function retrieveModel(client: Requester, id: unknown, options: CallOptions): Promise<Outcome<unknown>> {
  if (typeof id !== "string" || id === "") throw invalidArgument("id", 'a model id such as "openai/gpt-4.1-mini"', id);
  return outcomeOf(client.request({ method: "GET", path: `/v1/models/${encodeURIComponent(id)}`, options }), false);
}
