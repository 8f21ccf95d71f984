// Everything exported here is the public API of @caveman/keep.
export type {
  KeepDeps,
  KeepOutcome,
  KeepRequest,
  Kept,
  OriginalSink,
  Passed,
  RunFailure,
  Runner,
  RunOutcome,
} from "./keep.js";
export { inlineRunner, keep } from "./keep.js";
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
