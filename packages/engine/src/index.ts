// Everything exported here is the public API of @caveman/engine.
export { compress, DEFAULT_FLOOR_TOKENS, MIN_GAIN } from "./compress.js";
export { detect } from "./detect.js";
export type { EngineErrorCode } from "./errors.js";
export { EngineError } from "./errors.js";
export { CONTENT_KINDS } from "./kinds/list.js";
export type { MarkerSpec } from "./markers.js";
export { formatMarker, isMarkerLine, MARKER_OPEN } from "./markers.js";
export { narrow } from "./narrow.js";
export type { TokenCount } from "./tokens.js";
export { countTokens, EXACT_TOKEN_LIMIT, measureTokens } from "./tokens.js";
export type { ToonDecodeOptions, ToonEncodeOptions } from "./toon.js";
export { toonDecode, toonEncode } from "./toon.js";
export type {
  CompressOptions,
  CompressResult,
  ContentKind,
  Detection,
  NarrowOptions,
  NarrowResult,
  PassReason,
  ToonResult,
} from "./types.js";
