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
import type { CallToolResult, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { errorResult } from "../contract.js";
import { type Logger, silentLogger } from "../logger.js";
import type { ToolRegistry } from "../registry.js";
import { answerTooLarge, fault, invalidRequest, lineTooLarge, parseError } from "../transport/faults.js";
import { type Frame, LineFramer } from "../transport/framing.js";
import { classify, decodeLine, sniffId } from "../transport/message.js";
import { DEFAULT_MAX_INBOUND_BYTES } from "../transport/options.js";
import { LineWriter } from "../transport/writer.js";
import type { BudgetLimits } from "./budget.js";
import { OpenRequests, RETRIEVE } from "./pending.js";
import type { TextTransform } from "./rewrite.js";

export type ProxyCloseReason = "eof" | "client_gone" | "upstream_gone" | "requested";

export interface ProxyOptions {
  /** The client side (our own stdin/stdout). */
  stdin: Readable;
  stdout: Writable;
  /** The wrapped server's stdin and stdout. */
  upstream: { stdin: Writable; stdout: Readable };
  transform: TextTransform;
  /** The host's limit and the budgets of stand-ins (budget.ts has the defaults). */
  limits?: BudgetLimits;
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

type Obj = Record<string, unknown>;

/** True when a line's first bytes open a JSON-RPC answer object (`{"jsonrpc"…`, `{"id"…`, `{"result"…`). */
function looksLikeAnswer(bytes: Buffer): boolean {
  return /^\s*\{\s*"(jsonrpc|id|result|error)"/.test(bytes.toString("latin1", 0, 64));
}

export function startProxy(options: ProxyOptions): ProxyHandle {
  const logger = options.logger ?? silentLogger;
  const open = new OpenRequests({
    transform: options.transform,
    retrieveTool: options.retrieve?.listTools().find((t) => t.name === RETRIEVE),
    logger,
    ...(options.limits ? { limits: options.limits } : {}),
  });
  const local = new Set<Promise<void>>();

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
        result = errorResult("cave_tool_panicked", err instanceof Error ? err.message : String(err));
      }
      await emit({ jsonrpc: "2.0", id, result });
    })();
    local.add(task);
    void task.finally(() => local.delete(task));
  };

  const fromClient = (frame: Frame) => {
    if (frame.kind === "oversized") {
      void emit(lineTooLarge(frame));
      return;
    }
    const decoded = decodeLine(frame.bytes);
    if (decoded.kind === "skip") return;
    if (decoded.kind === "bad") {
      void emit(parseError(decoded.reason));
      return;
    }
    const value = decoded.value;
    if (Array.isArray(value)) {
      if (value.length === 0) {
        void emit(invalidRequest(null, "empty batch"));
        return;
      }
      for (const item of value) open.note(item, true);
      // A batch goes as the client wrote it (a renamed call inside one reaches the server unrenamed).
    } else {
      const c = classify(value);
      if (c.kind === "invalid") {
        void emit(invalidRequest(c.id, c.reason));
        return;
      }
      const noted = open.note(value, false);
      if (noted.ours) {
        const msg = c.message as { id: RequestId; params: Obj };
        answerRetrieve(msg.id, msg.params);
        return;
      }
      if (noted.replace) {
        void toServer.write(JSON.stringify(noted.replace));
        return;
      }
    }
    void toServer.write(frame.bytes);
  };

  // ---- server -> client
  const serverFramer = new LineFramer(options.maxUpstreamBytes ?? 64 * 1024 * 1024);

  const fromServer = (frame: Frame) => {
    if (frame.kind === "oversized") {
      const id = sniffId(frame.head, frame.tail);
      open.forget(id);
      logger.warn(`proxy: the wrapped server sent a line of ${frame.length} bytes, over the cap; dropped`);
      if (id !== null) void emit(answerTooLarge(id, frame.length));
      return;
    }
    const decoded = decodeLine(frame.bytes);
    if (decoded.kind === "skip") return;
    if (decoded.kind === "bad" && decoded.text === "" && looksLikeAnswer(frame.bytes)) {
      // Not valid UTF-8, but an answer: the client gets the server's bytes as they are (only valid
      // text is ever compressed), and the request leaves the book.
      open.forget(
        sniffId(
          frame.bytes.toString("latin1", 0, 4096),
          frame.bytes.toString("latin1", Math.max(0, frame.bytes.length - 4096)),
        ),
      );
      void toClient.write(frame.bytes);
      return;
    }
    if (decoded.kind === "bad" || decoded.value === null || typeof decoded.value !== "object") {
      dropNotice(decoded.kind === "bad" ? decoded.text.slice(0, 200) : "non-object");
      return;
    }
    const items: unknown[] = Array.isArray(decoded.value) ? decoded.value : [decoded.value];
    const next = items.map((item) => open.rewrite(item));
    if (next.every((n) => n === null)) {
      void toClient.write(frame.bytes);
      return;
    }
    // Compression runs off this thread (the pool) and may take a while: the relay keeps going
    // (pings and other answers pass meanwhile), and this answer goes out when it is ready.
    const task = (async () => {
      const done = await Promise.all(next);
      if (done.every((n) => n === null)) await toClient.write(frame.bytes);
      else if (!Array.isArray(decoded.value)) await toClient.write(JSON.stringify(done[0]));
      else await toClient.write(JSON.stringify(done.map((n, i) => n ?? items[i])));
    })();
    local.add(task);
    void task.finally(() => local.delete(task));
  };

  // Non-JSON lines on the server's stdout are said once a second at most, with a count.
  let dropped = 0;
  let lastNotice = 0;
  const dropNotice = (sample: string) => {
    dropped += 1;
    const now = Date.now();
    if (now - lastNotice < 1000) return;
    lastNotice = now;
    logger.warn(
      `proxy: dropped ${dropped} line(s) from the wrapped server that are not JSON-RPC (stdout carries only JSON-RPC), e.g. ${sample}`,
    );
    dropped = 0;
  };

  // ---- lifecycle
  const close = (reason: ProxyCloseReason = "requested"): Promise<void> => {
    closing ??= (async () => {
      options.stdin.off("data", onClientData);
      options.stdin.pause();
      if (reason !== "client_gone") {
        await Promise.allSettled([...local]);
        for (const id of open.drain()) {
          void emit(fault(id, "cave_upstream_gone", "the wrapped server stopped before answering"));
        }
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
