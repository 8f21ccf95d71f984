// Everything exported here is the public API of @caveman/edit-ops.

export type { Editor } from "./editor.js";
export { createEditor } from "./editor.js";
export type { EditErrorCode, EditErrorDetails } from "./errors.js";
export { EditError, isEditError } from "./errors.js";
export type { PathSpec } from "./input/pathspec.js";
export { parsePathSpec } from "./input/pathspec.js";
export type {
  BatchEdit,
  BatchInput,
  DeleteInput,
  InsertInput,
  ReadInput,
  ReplaceInput,
  UndoInput,
  WriteInput,
} from "./input/schemas.js";
export {
  batchArgs,
  deleteArgs,
  insertArgs,
  readArgs,
  replaceArgs,
  undoArgs,
  writeArgs,
} from "./input/schemas.js";
export type { Target } from "./input/targets.js";
export { PHASE_CHANNEL, type Phase } from "./phases.js";
export type { Origin, RemovedText } from "./plan/plan.js";
export type { EditorOptions, EditResult, LineRange, ReadResult } from "./types.js";
