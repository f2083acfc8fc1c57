import type { Model, ModelCapability } from "../types/index.ts";
import type { MockModel } from "./catalogue.ts";
import { RequestRejected } from "./errors.ts";
import { hash } from "./random.ts";

/** The catalogue entry as `/v1/models` shows it, without the mock's routing-only fields. */
export function publicModel({ latency_ms: _latency, dimensions: _dimensions, ...model }: MockModel): Model {
  return model;
}

/**
 * The `/v1/models` handler for `catalogue`: the list with a strong `ETag` (a hash of the body,
 * so it changes whenever the catalogue does), and `304 Not Modified` without a body when
 * `If-None-Match` names it, as a client revalidating its cached catalogue expects. The body
 * and its tag are computed once: the catalogue does not change during a gateway's life.
 */
export function modelListing(catalogue: readonly MockModel[]): (ifNoneMatch: string | null) => Response {
  const body = JSON.stringify({ object: "list", data: catalogue.map(publicModel) });
  // Two hashes (of the text and of it reversed) and the length: a collision needs all three to match.
  const reversed = [...body].reverse().join("");
  const etag = `"${hex(hash(body))}${hex(hash(reversed))}-${body.length.toString(16)}"`;
  return (ifNoneMatch) => {
    if (ifNoneMatch !== null && matches(ifNoneMatch, etag)) return new Response(null, { status: 304, headers: { etag } });
    return new Response(body, { headers: { "content-type": "application/json", etag } });
  };
}

/**
 * Whether an `If-None-Match` value names `etag`: a list of tags, `*` for any, compared weakly
 * (a `W/` prefix ignored), as RFC 9110 has it for this header.
 */
function matches(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.split(",").some((tag) => {
    const value = tag.trim();
    return value === "*" || value.replace(/^W\//, "") === etag;
  });
}

function hex(value: number): string {
  return value.toString(16).padStart(8, "0");
}

/**
 * The catalogue model that `id` names, for an endpoint that needs `capability`: a 400 when
 * `id` is not a non-empty string, a 404 when no model has it, and a 400 naming the models
 * that would do when this one lacks the capability.
 */
export function modelFor(catalogue: readonly MockModel[], id: unknown, capability: ModelCapability, endpoint: string): MockModel {
  if (typeof id !== "string" || id === "") throw new RequestRejected("`model` is required and must be a non-empty string.", "model");
  const model = catalogue.find((candidate) => candidate.id === id);
  if (!model) throw new RequestRejected(`The model '${id}' does not exist.`, "model", 404, "model_not_found");
  if (!model.capabilities.includes(capability)) {
    const able = catalogue.filter((candidate) => candidate.capabilities.includes(capability)).map((candidate) => candidate.id);
    const hint = able.length === 0 ? "" : ` Use ${able.length === 1 ? able[0] : `one of ${able.join(", ")}`}.`;
    throw new RequestRejected(`The model '${id}' cannot serve ${endpoint}: it lacks the ${capability} capability.${hint}`, "model", 400, "unsupported_parameter");
  }
  return model;
}
