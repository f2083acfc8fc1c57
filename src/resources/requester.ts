import type { APIPromise } from "../pipeline/api-promise.ts";
import type { RequestSpec } from "../pipeline/request.ts";

/** What a resource needs from the client: the one request pipeline. */
export interface Requester {
  request<T>(spec: RequestSpec): APIPromise<T>;
}
