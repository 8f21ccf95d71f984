// Typed errors of @caveman/hooks. The hook entry points never throw them at a host: every failure
// becomes a pass-through decision (the original reaches the model). They exist so the settings
// parser can name what is wrong in a config file, and so pass reasons carry stable codes.

/** Stable codes of hook errors. */
export type HookErrorCode = "hook_settings_invalid";

/** A hook failure with a stable `code`; `cause` keeps the underlying error. */
export class HookError extends Error {
  readonly code: HookErrorCode;

  constructor(code: HookErrorCode, message: string, options?: ErrorOptions) {
    super(`${code}: ${message}`, options);
    this.name = "HookError";
    this.code = code;
  }
}

/** True for a HookError (optionally of one code). */
export function isHookError(err: unknown, code?: HookErrorCode): err is HookError {
  return err instanceof HookError && (code === undefined || err.code === code);
}
