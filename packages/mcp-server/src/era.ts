// Both MCP eras on one connection. Contract: every request is judged by itself, never by what came
// before it. A request whose `params._meta` carries `io.modelcontextprotocol/protocolVersion` is a
// modern (2026-07-28) request: an unsupported version is answered -32022 with `data.supported`, a
// missing `clientCapabilities` -32602, a method the modern revision does not have (initialize,
// ping, logging/setLevel, ...) -32601; `server/discover` is answered here; tools/list and
// tools/call go on to the server, and their results leave with `resultType`, the serverInfo stamp,
// and (lists) `ttlMs`/`cacheScope`. A request without the claim is legacy (initialize handshake,
// 2024-11-05 .. 2025-11-25) and passes through untouched. The gate sits between the SDK `Server`
// and the hardened transport, so every transport invariant (framing, caps, batches, id renaming,
// failure-chip capture) holds for both eras unchanged.
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { asError } from "./errors.js";

/** Modern-era revisions this server speaks (each request names one in `_meta`). */
const MODERN_PROTOCOL_VERSIONS: readonly string[] = ["2026-07-28"];
export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
/** JSON-RPC code of the modern UnsupportedProtocolVersion error (SDK v1 has no constant for it). */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** What this server serves in the modern era; everything else there is -32601. */
const MODERN_METHODS = new Set(["server/discover", "tools/list", "tools/call"]);
/**
 * The tool list never changes while the process runs (`listChanged: false`), and a restarted
 * server is a new connection, so a client may keep it for an hour. It depends on this server's
 * configuration (tool families), hence `private`.
 */
const TOOLS_LIST_CACHE = { ttlMs: 3_600_000, cacheScope: "private" } as const;
/** Discover answers are cheap; the SDK's defaults (do not cache, private) are right for them. */
const DISCOVER_CACHE = { ttlMs: 0, cacheScope: "private" } as const;

export interface EraGateOptions {
  inner: Transport;
  serverInfo: { name: string; version: string };
  capabilities: Record<string, unknown>;
  instructions?: string;
}

type Verdict =
  | { kind: "legacy" }
  | { kind: "modern" }
  | { kind: "answer"; result: Record<string, unknown> }
  | { kind: "error"; code: number; message: string; data?: Record<string, unknown> };

/** Longest piece of a client's request echoed back in an error (a version or method can be megabytes). */
const ECHO_MAX = 80;
function echo(text: string): string {
  return text.length > ECHO_MAX ? `${text.slice(0, ECHO_MAX)}…` : text;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The `_meta` of a request's params, when it is an object. */
function metaOf(params: unknown): Record<string, unknown> | undefined {
  return isObject(params) && isObject(params._meta) ? params._meta : undefined;
}

/** Judge one request by its own envelope (pure: no state, no earlier requests). */
export function judgeRequest(
  method: string,
  params: unknown,
  discover: () => Record<string, unknown>,
): Verdict {
  const meta = metaOf(params);
  if (meta === undefined || !(META_PROTOCOL_VERSION in meta)) {
    // server/discover is modern-only: without the envelope there is no version to serve, and
    // the answer names the ones we have (a dual-era client then retries or falls back).
    if (method === "server/discover") {
      return {
        kind: "error",
        code: UNSUPPORTED_PROTOCOL_VERSION,
        message: `Unsupported protocol version: server/discover needs _meta["${META_PROTOCOL_VERSION}"] (supported: ${MODERN_PROTOCOL_VERSIONS.join(", ")}; legacy clients use initialize)`,
        data: { supported: [...MODERN_PROTOCOL_VERSIONS] },
      };
    }
    return { kind: "legacy" };
  }
  const version = meta[META_PROTOCOL_VERSION];
  if (typeof version !== "string" || !MODERN_PROTOCOL_VERSIONS.includes(version)) {
    const requested = typeof version === "string" ? echo(version) : "unknown";
    return {
      kind: "error",
      code: UNSUPPORTED_PROTOCOL_VERSION,
      message: `Unsupported protocol version: ${requested} (supported: ${MODERN_PROTOCOL_VERSIONS.join(", ")}; legacy clients use initialize)`,
      data: { supported: [...MODERN_PROTOCOL_VERSIONS], requested },
    };
  }
  if (!isObject(meta[META_CLIENT_CAPABILITIES])) {
    return {
      kind: "error",
      code: ErrorCode.InvalidParams,
      message: `Invalid _meta envelope: ${META_CLIENT_CAPABILITIES} must be an object on protocol revision ${version}`,
    };
  }
  if (!MODERN_METHODS.has(method)) {
    return {
      kind: "error",
      code: ErrorCode.MethodNotFound,
      message: `Method not found: ${echo(method)} is not part of protocol revision ${version}`,
    };
  }
  if (method === "server/discover") return { kind: "answer", result: discover() };
  return { kind: "modern" };
}

/** A `Transport` in front of another that serves the modern era beside the legacy one. */
export class EraGate implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  readonly #inner: Transport;
  readonly #options: EraGateOptions;
  /** Modern requests in flight: id (as the server sees it) -> method. */
  readonly #modern = new Map<RequestId, string>();

  constructor(options: EraGateOptions) {
    this.#inner = options.inner;
    this.#options = options;
    this.#inner.onmessage = (message) => this.#receive(message);
    this.#inner.onclose = () => this.onclose?.();
    this.#inner.onerror = (err) => this.onerror?.(err);
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const msg = message as Record<string, unknown>;
    const id = msg.id as RequestId | undefined;
    if (!("method" in msg) && id !== undefined && this.#modern.has(id)) {
      const method = this.#modern.get(id) as string;
      this.#modern.delete(id);
      if (isObject(msg.result)) {
        return this.#inner.send(
          { ...msg, result: this.#modernResult(method, msg.result) } as JSONRPCMessage,
          options,
        );
      }
    }
    return this.#inner.send(message, options);
  }

  /** Modern-era dress for a result: resultType, serverInfo stamp, cache hints on lists. */
  #modernResult(method: string, result: Record<string, unknown>): Record<string, unknown> {
    const meta = isObject(result._meta) ? result._meta : {};
    return {
      ...result,
      ...(method === "tools/list" ? TOOLS_LIST_CACHE : {}),
      resultType: "complete",
      _meta: { ...meta, [META_SERVER_INFO]: this.#options.serverInfo },
    };
  }

  #discover = (): Record<string, unknown> => ({
    supportedVersions: [...MODERN_PROTOCOL_VERSIONS],
    capabilities: this.#options.capabilities,
    ...(this.#options.instructions ? { instructions: this.#options.instructions } : {}),
    ...DISCOVER_CACHE,
  });

  #receive(message: JSONRPCMessage): void {
    const msg = message as Record<string, unknown>;
    if (typeof msg.method !== "string") {
      this.onmessage?.(message);
      return;
    }
    if (msg.id === undefined) {
      if (msg.method === "notifications/cancelled" && isObject(msg.params)) {
        this.#modern.delete(msg.params.requestId as RequestId);
      }
      this.onmessage?.(message);
      return;
    }
    const id = msg.id as RequestId;
    const verdict = judgeRequest(msg.method, msg.params, this.#discover);
    switch (verdict.kind) {
      case "legacy":
        this.onmessage?.(message);
        return;
      case "modern":
        this.#modern.set(id, msg.method);
        this.onmessage?.(message);
        return;
      case "answer":
        this.#modern.set(id, msg.method);
        void this.send({ jsonrpc: "2.0", id, result: verdict.result } as JSONRPCMessage).catch(this.#report);
        return;
      case "error":
        void this.#inner
          .send({
            jsonrpc: "2.0",
            id,
            error: {
              code: verdict.code,
              message: verdict.message,
              ...(verdict.data ? { data: verdict.data } : {}),
            },
          } as JSONRPCMessage)
          .catch(this.#report);
        return;
    }
  }

  readonly #report = (err: unknown): void => {
    this.onerror?.(asError(err));
  };
}
