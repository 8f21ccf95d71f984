// The JSON-RPC errors this server writes itself. Contract: each fault is built in one place, its
// wire code written once (the message starts `<code>: `, and `data.code` repeats it for clients
// that read only data), and its numeric code comes from the SDK's `ErrorCode` wherever JSON-RPC or
// MCP defines one. The numbers:
// - cave_payload_too_large -> -32600 (InvalidRequest). A line over the cap is a request we refuse
//   to read as sent. It used to be -32001, which the SDK defines as RequestTimeout: an SDK client
//   saw "timed out" and might send the same huge line again. `data.code` and the text are as before.
//   The proxy's refusal of the wrapped server's over-cap answer keeps the code but is -32603
//   (InternalError): the client's request was fine, the answer could not be delivered.
// - cave_overloaded -> -32002, a server-defined code (JSON-RPC reserves -32000..-32099 for them);
//   the SDK has no constant for "not run, send again", and MCP uses -32002 only for resources,
//   which this server does not serve.
// - cave_internal_error, cave_shutting_down, cave_upstream_gone -> -32603 (InternalError).
import { ErrorCode, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { TransportFaultCode } from "../errors.js";
import type { Frame } from "./framing.js";
import { sniffId } from "./message.js";

/** Server-defined JSON-RPC code for a request read but not run while the client read no answers. */
const OVERLOADED = -32002;

const RPC_CODE: Readonly<Record<TransportFaultCode, number>> = {
  cave_payload_too_large: ErrorCode.InvalidRequest,
  cave_overloaded: OVERLOADED,
  cave_internal_error: ErrorCode.InternalError,
  cave_shutting_down: ErrorCode.InternalError,
  cave_upstream_gone: ErrorCode.InternalError,
};

/** A JSON-RPC error response; `id` null when the request's id could not be read. */
function errorResponse(id: RequestId | null, code: number, message: string, data?: unknown): object {
  const error: Record<string, unknown> = { code, message };
  if (data !== undefined) error.data = data;
  return { jsonrpc: "2.0", id, error };
}

/** The error answer for one of our faults: `<code>: <detail>`, with `data.code` and any `extra` data. */
export function fault(
  id: RequestId | null,
  code: TransportFaultCode,
  detail: string,
  extra?: Record<string, unknown>,
  rpcCode: number = RPC_CODE[code],
): object {
  return errorResponse(id, rpcCode, `${code}: ${detail}`, { code, ...extra });
}

/** -32700 for a line that is not JSON (no id: it could not be read). */
export function parseError(reason: string): object {
  return errorResponse(null, ErrorCode.ParseError, `Parse error: ${reason}`);
}

/** -32600 for JSON that is not a JSON-RPC message, or an empty batch. */
export function invalidRequest(id: RequestId | null, reason: string): object {
  return errorResponse(id, ErrorCode.InvalidRequest, `Invalid Request: ${reason}`);
}

/** The answer to a client line over the inbound cap, sent to the id sniffed from its ends (or null). */
export function lineTooLarge(frame: Extract<Frame, { kind: "oversized" }>): object {
  return fault(
    sniffId(frame.head, frame.tail),
    "cave_payload_too_large",
    `a line of ${frame.length} bytes is over the inbound cap; it was discarded`,
    { bytes: frame.length },
  );
}

/** The proxy's answer in place of a wrapped server's answer over its cap (the request was fine). */
export function answerTooLarge(id: RequestId, length: number): object {
  return fault(
    id,
    "cave_payload_too_large",
    `the wrapped server's answer of ${length} bytes is over the proxy's cap`,
    { bytes: length },
    ErrorCode.InternalError,
  );
}
