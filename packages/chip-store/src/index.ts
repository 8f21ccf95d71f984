// Everything exported here is the public API of @caveman/chip-store.

export type { DefaultChipDirInput } from "./defaultDir.js";
export { defaultChipDir } from "./defaultDir.js";
export type { ChipErrorCode } from "./errors.js";
export { ChipStoreError, isChipStoreError } from "./errors.js";
export type { RandomBytes } from "./ids.js";
export { isValidChipId, parseChipRef } from "./ids.js";
export type {
  ChipStoreOptions,
  ListFilter,
  LoadReport,
  SaveContentInput,
  SaveFailureInput,
  SaveResult,
} from "./options.js";
export type { Chip, ChipKind, ChipMeta, ChipOrigin } from "./record.js";
export type { ReplayOptions } from "./replay.js";
export { replayText } from "./replay.js";
export { ChipStore, openChipStore } from "./store.js";
