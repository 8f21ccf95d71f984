// Typed errors of @caveman/mcp-server. Contract: every failure a tool reports carries a stable
// snake_case `code` that starts its text on the wire (`be_out_of_range: ...`); the mapping from
// library errors to these codes lives in `wire/errorMap.ts` and nowhere else.

/** Codes the server itself raises (library codes are mapped with a family prefix). */
export type McpServerErrorCode =
  | "cave_invalid_arguments"
  | "cave_unknown_tool"
  | "cave_tool_panicked"
  | "cave_internal_error"
  | "cave_result_too_large"
  | "cave_unknown_handle"
  | "cave_toon_invalid"
  | "cave_engine_timeout"
  | "cave_engine_failed"
  | "be_invalid_argument"
  | "be_chip_not_insertable";

/** A failure the server reports as a tool result with `isError: true`. */
export class McpServerError extends Error {
  readonly code: McpServerErrorCode;

  constructor(code: McpServerErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "McpServerError";
    this.code = code;
  }
}
