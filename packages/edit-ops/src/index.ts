// Everything exported here is the public API of @caveman/edit-ops.

export type { Editor } from "./editor.js";
export { createEditor } from "./editor.js";
export type { EditErrorCode, EditErrorDetails } from "./errors.js";
export { EditError, isEditError } from "./errors.js";
export type { PathSpec } from "./input/pathspec.js";
export { parsePathSpec } from "./input/pathspec.js";
export {
  batchArgs,
  deleteArgs,
  insertArgs,
  readArgs,
  replaceArgs,
  undoArgs,
  writeArgs,
} from "./input/schemas.js";
export { PHASE_CHANNEL, type Phase } from "./phases.js";
export type {
  BatchEdit,
  BatchInput,
  DeleteInput,
  EditorOptions,
  EditResult,
  InsertInput,
  LineRange,
  Origin,
  ReadInput,
  ReadResult,
  RemovedText,
  ReplaceInput,
  Target,
  UndoInput,
  WriteInput,
} from "./types.js";
