import type { Requester } from "../requester.ts";
import { Completions } from "./completions.ts";

/** `client.chat`. */
export class Chat {
  /** Chat completions: `client.chat.completions.create(...)`. */
  declare readonly completions: Completions;

  /** @internal Made by the client: use `client.chat`. */
  constructor(client: Requester) {
    this.completions = new Completions(client);
  }
}
