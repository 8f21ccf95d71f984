// What the hardened stdio transport is built from: its streams, its limits, and the hooks through
// which the server core sees raw traffic (failure capture, cancellation, shutdown).
import type { Readable, Writable } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export const DEFAULT_MAX_INBOUND_BYTES = 16 * 1024 * 1024;

/** Hooks the server core uses to see raw traffic; all optional and all synchronous. */
export interface TransportHooks {
  /** A request is about to be dispatched under the private id `id`. */
  onRequest?: (id: number, message: { method: string; params?: unknown }) => void;
  /** A response to private id `id` is about to be written; may return a replacement. */
  onResponse?: (id: number, message: JSONRPCMessage) => JSONRPCMessage;
  /** The client cancelled request `id`; no response will be written for it. */
  onCancelled?: (id: number) => void;
  /** A line that is not JSON; may return a note appended to the -32700 message. */
  onUnparseable?: (text: string) => string | undefined;
  /** Input ended (EOF or a stream error): the server should stop and leave. */
  onInputClosed?: (reason: "eof" | "error") => void;
  /** The client stopped reading (EPIPE or close on stdout). */
  onOutputClosed?: (err?: Error) => void;
}

export interface StdioTransportOptions extends TransportHooks {
  stdin: Readable;
  stdout: Writable;
  /** Longest accepted line in bytes (default 16 MiB). */
  maxInboundBytes?: number;
  /** How long `close()` waits for queued answers to reach a client that is not reading (default 2000 ms). */
  flushTimeoutMs?: number;
  /** How long blocked output may make no progress before requests are shed, or after EOF dropped (default 3000 ms). */
  stallMs?: number;
  /** Answers queued beyond this many bytes count as blocked output (default 4 MiB). */
  maxQueuedBytes?: number;
}
