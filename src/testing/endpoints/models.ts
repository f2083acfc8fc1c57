import type { Model } from "../../types/index.ts";
import type { MockModel } from "../catalogue/models.ts";
import { RequestRejected } from "../http/error-response.ts";
import { hash } from "../random.ts";

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

/** `GET /v1/models/{id}`: one model of the catalogue, its id sent encoded (`%2F`) or as is. */
export function serveModel(catalogue: readonly MockModel[], encodedId: string): Response {
  let id: string;
  try {
    // Ids contain "/": clients send it encoded (%2F) or as is; both name the same model.
    id = decodeURIComponent(encodedId);
  } catch {
    throw new RequestRejected(`The model id '${encodedId}' is not validly URL-encoded.`, "id");
  }
  const model = catalogue.find((candidate) => candidate.id === id);
  if (!model) throw new RequestRejected(`The model '${id}' does not exist.`, "id", 404, "model_not_found");
  return Response.json(publicModel(model));
}
