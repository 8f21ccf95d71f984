// Typed errors and wire codes of @caveman/mcp-server. Contract: every failure the server reports
// carries a stable snake_case code. `WireCode` is the one list of the codes the server raises
// itself — at the start of an `isError` tool result's text, or in `error.data.code` of a JSON-RPC
// error the transport or the proxy writes. Library errors reach the wire with a family prefix
// (`be_<edit-ops or chip-store code>`, `cave_<ccr-store code>`), mapped in `wire/errorMap.ts` and
// nowhere else.

/** Codes of failed tool calls (tool results with `isError: true`). */
export type ToolFaultCode =
  | "cave_invalid_arguments"
  | "cave_unknown_tool"
  | "cave_tool_panicked"
  | "cave_result_too_large"
  | "cave_unknown_handle"
  | "cave_toon_invalid"
  | "cave_engine_timeout"
  | "cave_engine_failed"
  | "be_invalid_argument"
  | "be_chip_not_insertable";

/** Codes of JSON-RPC errors written by the transport or the proxy (in `error.data.code`). */
export type TransportFaultCode =
  | "cave_payload_too_large"
  | "cave_overloaded"
  | "cave_internal_error"
  | "cave_shutting_down"
  | "cave_upstream_gone";

/** Every code the server raises itself, whichever way it reaches the client. */
export type WireCode = ToolFaultCode | TransportFaultCode;

/** A failure the server reports as a tool result with `isError: true`. */
export class McpServerError extends Error {
  readonly code: ToolFaultCode;

  constructor(code: ToolFaultCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "McpServerError";
    this.code = code;
  }
}

/** Anything thrown, as an Error (for `onerror` and loggers). */
export function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
