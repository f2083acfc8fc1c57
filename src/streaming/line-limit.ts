/**
 * The default longest line or event a stream reader takes (the client's `maxSSELineLength`),
 * in UTF-16 code units: the SSE decoder's limit, which the bridge reader applies to its lines
 * too. A module of its own, as neither reader is the other's.
 */
export const DEFAULT_MAX_LINE_LENGTH = 16 * 1024 * 1024;
