// The MCP proxy's relay: client <-> wrapped server over newline-delimited JSON-RPC. Contract:
// every message passes byte-exact in both directions, except (1) a successful `tools/call` result
// whose text blocks the injected transform shrinks, (2) the last `tools/list` page, which gains
// `caveman_retrieve` when we serve it, and (3) calls of `caveman_retrieve`, which we answer
// ourselves. Our transport invariants hold on the client side: a malformed line is answered
// -32700, a message that is not JSON-RPC -32600, an empty batch -32600, a line over the inbound
// cap `cave_payload_too_large`, and none of them reach the server; a server line that is not JSON
// is logged to stderr and dropped (stdout carries only JSON-RPC), and one over the upstream cap is
// answered to its caller as `cave_payload_too_large`. When the server goes away, requests still
// open are answered `cave_upstream_gone`. Backpressure on either side pauses the other's reader.
import type { Readable, Writable } from "node:stream";
import type { CallToolResult, RequestId, Tool } from "@modelcontextprotocol/sdk/types.js";
import { type Logger, silentLogger } from "../logger.js";
import type { ToolRegistry } from "../registry.js";
import { type Frame, LineFramer } from "../transport/framing.js";
import {
  classify,
  decodeLine,
  errorResponse,
  INTERNAL_ERROR,
  INVALID_REQUEST,
  PARSE_ERROR,
  PAYLOAD_TOO_LARGE,
  readableId,
  sniffId,
} from "../transport/message.js";
import { DEFAULT_MAX_INBOUND_BYTES } from "../transport/stdio.js";
import { LineWriter } from "../transport/writer.js";
import { addRetrieveTool, rewriteCallResult, type TextTransform } from "./rewrite.js";

export type ProxyCloseReason = "eof" | "client_gone" | "upstream_gone" | "requested";

export interface ProxyOptions {
  /** The client side (our own stdin/stdout). */
  stdin: Readable;
  stdout: Writable;
  /** The wrapped server's stdin and stdout. */
  upstream: { stdin: Writable; stdout: Readable };
  transform: TextTransform;
  /** Serves `caveman_retrieve` (a registry holding that tool); omitted: nothing is added. */
  retrieve?: ToolRegistry;
  /** Longest client line (default 16 MiB). */
  maxInboundBytes?: number;
  /** Longest server line (default 64 MiB; tool results can be large). */
  maxUpstreamBytes?: number;
  logger?: Logger;
}

export interface ProxyHandle {
  readonly closed: Promise<ProxyCloseReason>;
  close(reason?: ProxyCloseReason): Promise<void>;
}

/** Every request the server has not answered yet; calls and lists say what their answer needs. */
type Pending = { kind: "call"; tool: string } | { kind: "list" } | { kind: "other" };

type Obj = Record<string, unknown>;

const RETRIEVE = "caveman_retrieve";

function idKey(id: unknown): string | null {
  const r = readableId(id);
  return r === null ? null : JSON.stringify(r);
}

export function startProxy(options: ProxyOptions): ProxyHandle {
  const logger = options.logger ?? silentLogger;
  const pending = new Map<string, Pending>();
  const local = new Set<Promise<void>>();
  let upstreamHasRetrieve = false;
  let retrieveTool: Tool | undefined = options.retrieve?.listTools().find((t) => t.name === RETRIEVE);

  let resolveClosed!: (r: ProxyCloseReason) => void;
  const closed = new Promise<ProxyCloseReason>((r) => {
    resolveClosed = r;
  });
  let closing: Promise<void> | undefined;

  const toClient = new LineWriter(
    options.stdout,
    () => void close("client_gone"),
    (blocked) => (blocked ? options.upstream.stdout.pause() : options.upstream.stdout.resume()),
  );
  const toServer = new LineWriter(
    options.upstream.stdin,
    () => {},
    (blocked) => (blocked ? options.stdin.pause() : options.stdin.resume()),
  );
  const emit = (payload: unknown) => toClient.write(JSON.stringify(payload));

  // ---- client -> server
  const clientFramer = new LineFramer(options.maxInboundBytes ?? DEFAULT_MAX_INBOUND_BYTES);

  /** Records what the answer to a request needs; true when the request is ours to answer. */
  const note = (value: unknown, inBatch: boolean): boolean => {
    const c = classify(value);
    if (c.kind === "notification" && c.message.method === "notifications/cancelled") {
      // A cancelled request gets no answer (MCP cancellation), not even ours at shutdown.
      const target = idKey((c.message as { params?: Obj }).params?.requestId);
      if (target !== null) pending.delete(target);
    }
    if (c.kind !== "request") return false;
    const key = idKey(c.message.id);
    const params = (c.message as { params?: Obj }).params;
    if (key === null) return false;
    if (c.message.method === "tools/call" && typeof params?.name === "string") {
      // Ours to answer: it never reaches the server, so nothing waits for the server's answer.
      if (params.name === RETRIEVE && retrieveTool && !upstreamHasRetrieve && !inBatch) return true;
      pending.set(key, { kind: "call", tool: params.name });
    } else {
      pending.set(key, { kind: c.message.method === "tools/list" ? "list" : "other" });
    }
    return false;
  };

  const answerRetrieve = (id: RequestId, params: Obj) => {
    const registry = options.retrieve;
    if (!registry) return;
    const task = (async () => {
      let result: CallToolResult;
      try {
        result = await registry.callTool(RETRIEVE, params.arguments, {
          signal: new AbortController().signal,
        });
      } catch (err) {
        result = {
          content: [
            { type: "text", text: `cave_tool_panicked: ${err instanceof Error ? err.message : String(err)}` },
          ],
          isError: true,
        };
      }
      await emit({ jsonrpc: "2.0", id, result });
    })();
    local.add(task);
    void task.finally(() => local.delete(task));
  };

  const fromClient = (frame: Frame) => {
    if (frame.kind === "oversized") {
      void emit(
        errorResponse(
          sniffId(frame.head, frame.tail),
          PAYLOAD_TOO_LARGE,
          `cave_payload_too_large: a line of ${frame.length} bytes is over the inbound cap; it was discarded`,
          { code: "cave_payload_too_large", bytes: frame.length },
        ),
      );
      return;
    }
    const decoded = decodeLine(frame.bytes);
    if (decoded.kind === "skip") return;
    if (decoded.kind === "bad") {
      void emit(errorResponse(null, PARSE_ERROR, `Parse error: ${decoded.reason}`));
      return;
    }
    const value = decoded.value;
    if (Array.isArray(value)) {
      if (value.length === 0) {
        void emit(errorResponse(null, INVALID_REQUEST, "Invalid Request: empty batch"));
        return;
      }
      for (const item of value) note(item, true);
    } else {
      const c = classify(value);
      if (c.kind === "invalid") {
        void emit(errorResponse(c.id, INVALID_REQUEST, `Invalid Request: ${c.reason}`));
        return;
      }
      if (note(value, false)) {
        const msg = c.message as { id: RequestId; params: Obj };
        answerRetrieve(msg.id, msg.params);
        return;
      }
    }
    void toServer.write(frame.bytes.toString("utf8"));
  };

  // ---- server -> client
  const serverFramer = new LineFramer(options.maxUpstreamBytes ?? 64 * 1024 * 1024);

  /** The message to send instead of this one, or null to forward its bytes. */
  const rewrite = (value: unknown): Obj | null => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
    const msg = value as Obj;
    if (!("result" in msg || "error" in msg)) return null;
    const key = idKey(msg.id);
    const p = key === null ? undefined : pending.get(key);
    if (!p || key === null) return null;
    pending.delete(key);
    try {
      if (p.kind === "call") return rewriteCallResult(msg, p.tool, options.transform);
      if (p.kind === "other" || !retrieveTool || upstreamHasRetrieve) return null;
      const added = addRetrieveTool(msg, retrieveTool);
      if (added.upstreamHasIt) {
        upstreamHasRetrieve = true;
        retrieveTool = undefined;
      }
      return added.message;
    } catch (err) {
      // A transform fault costs the compression, never the answer.
      logger.warn(
        `proxy: rewrite failed, forwarding the original (${err instanceof Error ? err.message : String(err)})`,
      );
      return null;
    }
  };

  const fromServer = (frame: Frame) => {
    if (frame.kind === "oversized") {
      const id = sniffId(frame.head, frame.tail);
      const key = idKey(id);
      if (key !== null) pending.delete(key);
      logger.warn(`proxy: the wrapped server sent a line of ${frame.length} bytes, over the cap; dropped`);
      if (id !== null)
        void emit(
          errorResponse(
            id,
            PAYLOAD_TOO_LARGE,
            `cave_payload_too_large: the wrapped server's answer of ${frame.length} bytes is over the proxy's cap`,
            {
              code: "cave_payload_too_large",
              bytes: frame.length,
            },
          ),
        );
      return;
    }
    const decoded = decodeLine(frame.bytes);
    if (decoded.kind === "skip") return;
    if (decoded.kind === "bad" || decoded.value === null || typeof decoded.value !== "object") {
      logger.warn(
        `proxy: dropped a line from the wrapped server that is not JSON-RPC: ${decoded.kind === "bad" ? decoded.text.slice(0, 200) : "non-object"}`,
      );
      return;
    }
    if (Array.isArray(decoded.value)) {
      let changed = false;
      const items = decoded.value.map((item: unknown) => {
        const next = rewrite(item);
        if (next) changed = true;
        return next ?? item;
      });
      if (changed) void toClient.write(JSON.stringify(items));
      else void toClient.write(frame.bytes.toString("utf8"));
      return;
    }
    const next = rewrite(decoded.value);
    void toClient.write(next ? JSON.stringify(next) : frame.bytes.toString("utf8"));
  };

  // ---- lifecycle
  const close = (reason: ProxyCloseReason = "requested"): Promise<void> => {
    closing ??= (async () => {
      options.stdin.off("data", onClientData);
      options.stdin.pause();
      if (reason !== "client_gone") {
        await Promise.allSettled([...local]);
        for (const key of pending.keys()) {
          void emit(
            errorResponse(
              JSON.parse(key) as RequestId,
              INTERNAL_ERROR,
              "cave_upstream_gone: the wrapped server stopped before answering",
              {
                code: "cave_upstream_gone",
              },
            ),
          );
        }
        pending.clear();
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([toClient.flush(), new Promise<void>((r) => (timer = setTimeout(r, 2000)))]);
        clearTimeout(timer);
      }
      try {
        options.upstream.stdin.end();
      } catch {
        // Already closed.
      }
      resolveClosed(reason);
    })();
    return closing;
  };

  const onClientData = (chunk: Buffer | string) => {
    const buf = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    for (const f of clientFramer.push(buf)) safely(() => fromClient(f));
  };
  const safely = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      logger.error(`proxy: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
  };
  options.stdin.on("data", onClientData);
  options.stdin.on("end", () => {
    for (const f of clientFramer.end()) safely(() => fromClient(f));
    // The client is done sending: tell the server, then wait for it to answer and leave.
    void toServer.flush().then(() => {
      try {
        options.upstream.stdin.end();
      } catch {
        // Already closed.
      }
    });
  });
  options.stdin.on("error", () => void close("eof"));
  let clientEnded = false;
  options.stdin.once("end", () => {
    clientEnded = true;
  });
  options.upstream.stdout.on("data", (chunk: Buffer) => {
    for (const f of serverFramer.push(chunk)) safely(() => fromServer(f));
  });
  options.upstream.stdout.on("end", () => {
    for (const f of serverFramer.end()) safely(() => fromServer(f));
    void close(clientEnded ? "eof" : "upstream_gone");
  });
  options.upstream.stdout.on("error", () => void close("upstream_gone"));
  return { closed, close };
}
