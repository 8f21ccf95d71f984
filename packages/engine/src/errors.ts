// Typed errors of @caveman/engine. The public functions never throw them at their callers:
// `compress` and `narrow` fail closed and the TOON functions return `{ ok: false, code }`.
// They exist so that internal failures carry a stable snake_case code and their cause.

/** Stable codes of engine errors. */
export type EngineErrorCode = "cave_toon_invalid" | "cave_json_invalid" | "cave_engine_internal";

/** An engine failure with a stable `code`; `cause` keeps the underlying error. */
export class EngineError extends Error {
  readonly code: EngineErrorCode;

  constructor(code: EngineErrorCode, message: string, options?: ErrorOptions) {
    super(`${code}: ${message}`, options);
    this.name = "EngineError";
    this.code = code;
  }
}

/** Message of any thrown value, for results that report a failure as data. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
