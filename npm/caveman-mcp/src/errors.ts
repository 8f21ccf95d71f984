// Typed launcher errors. Each carries a stable snake_case code (tests and users key on it)
// and a message that says what to do next; `cause` rides along through ErrorOptions.

/** Stable codes of the launcher's failures. */
export type LauncherErrorCode = "launcher_override_missing" | "launcher_no_server" | "launcher_spawn_failed";

/** A failure of the launcher itself (never of the server it starts). */
export class LauncherError extends Error {
  readonly code: LauncherErrorCode;

  constructor(code: LauncherErrorCode, message: string, options?: ErrorOptions) {
    super(`${code}: ${message}`, options);
    this.name = "LauncherError";
    this.code = code;
  }
}
