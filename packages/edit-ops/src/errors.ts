// Typed errors of @caveman/edit-ops. Every error carries a stable snake_case `code` (the MCP server
// prefixes `be_` on the wire) and a message that says what to do next. A failed operation never
// changes the file: every error is raised before the atomic rename or after nothing was written.

export type EditErrorCode =
  | "out_of_range"
  | "invalid_range"
  | "no_match"
  | "ambiguous_match"
  | "conflict"
  | "outside_roots"
  | "not_found"
  | "binary_file"
  | "unsupported_encoding"
  | "too_large"
  | "invalid_argument"
  | "nothing_to_undo"
  | "permission_denied"
  | "busy"
  | "io_error";

/** Facts behind an error, for callers that want more than the message (all optional). */
export interface EditErrorDetails {
  path?: string;
  total_lines?: number;
  match_lines?: number[];
  actual?: string;
  hash?: string;
  roots?: string[];
  next?: { start_line: number; end_line: number };
}

export class EditError extends Error {
  readonly code: EditErrorCode;
  readonly details: EditErrorDetails;

  constructor(code: EditErrorCode, message: string, details: EditErrorDetails = {}, options?: ErrorOptions) {
    super(message, options);
    this.name = "EditError";
    this.code = code;
    this.details = details;
  }
}

export function isEditError(value: unknown): value is EditError {
  return value instanceof EditError;
}

/** Map a Node fs error to a typed error; anything unknown becomes `io_error` with the cause kept. */
export function fsError(err: unknown, path: string, action: string): EditError {
  if (err instanceof EditError) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOENT" || code === "ENOTDIR") {
    return new EditError("not_found", `${path} does not exist (${action})`, { path }, { cause: err });
  }
  if (code === "EACCES" || code === "EPERM" || code === "EROFS") {
    return new EditError(
      "permission_denied",
      `cannot ${action} ${path}: permission denied (${code})`,
      { path },
      { cause: err },
    );
  }
  if (code === "ELOOP") {
    return new EditError(
      "invalid_argument",
      `${path} goes through a loop of symbolic links; fix the links first`,
      { path },
      { cause: err },
    );
  }
  if (code === "ENAMETOOLONG") {
    return new EditError(
      "invalid_argument",
      `the path or one of its names is too long for the file system (${path.length} characters)`,
      { path },
      { cause: err },
    );
  }
  if (code === "EISDIR") {
    return new EditError("invalid_argument", `${path} is a directory, not a file`, { path }, { cause: err });
  }
  const reason = err instanceof Error ? err.message : String(err);
  return new EditError("io_error", `cannot ${action} ${path}: ${reason}`, { path }, { cause: err });
}
