// Everything exported here is the public API of @caveman/keep.
export type {
  KeepDeps,
  KeepOutcome,
  KeepRequest,
  KeepSyncDeps,
  Kept,
  OriginalSink,
  Passed,
  RunFailure,
  Runner,
  RunOutcome,
  SyncRunner,
} from "./keep.js";
export { inlineRunner, inlineSyncRunner, keep, keepSync } from "./keep.js";
export type { HeaderFacts, PassFacts } from "./note.js";
export {
  keptHeader,
  parseKeptHeader,
  passNote,
  RETRIEVE_ARG,
  RETRIEVE_TOOL,
  standIn,
  startsWithHeader,
} from "./note.js";
