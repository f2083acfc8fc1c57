import type { ModelCapability } from "../../types/index.ts";
import { RequestRejected } from "../http/error-response.ts";
import type { MockModel } from "./models.ts";

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
