export type * from "./chat-params.ts";
export type * from "./chat-completion.ts";
export type * from "./models.ts";
