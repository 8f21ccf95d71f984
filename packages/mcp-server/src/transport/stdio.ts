// The hardened stdio transport: an SDK `Transport` over injected byte streams.
// Contract (docs/ARCHITECTURE.md, "Invariants"): every line a client sends gets exactly the answer JSON-RPC 2.0
// prescribes — -32700 for a malformed line, -32600 for JSON that is not a message, one array for a
// batch, nothing for a notification, `cave_payload_too_large` for a line over the cap — and the
// reader always resynchronises at the next newline. Request ids are renamed to private integers
// on the way in and restored on the way out, so duplicate or batched ids can never collide inside
// the SDK. The transport never throws into the stream machinery and never writes anything to
// stdout that is not one JSON-RPC message per line.
// Bounded memory: a partial line costs at most about twice its size (framing.ts); answers queued
// for a client that does not read are bounded (writer.ts); while output is blocked, lines are
// held, then shed, and EOF is always seen (flow.ts). Faults are reported through one helper
// (`#report`) and answered through transport/faults.ts, each wire code written once.
// A response from the client to no request of ours (a stray) is dropped and reported in one
// short line, never handed to the SDK (which would log the whole message).
import type { Readable } from "node:stream";
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { asError } from "../errors.js";
import { fault, invalidRequest, lineTooLarge, parseError } from "./faults.js";
import { InputFlow } from "./flow.js";
import { type Frame, LineFramer } from "./framing.js";
import { type Batch, RequestLedger } from "./ledger.js";
import { classify, decodeLine } from "./message.js";
import { DEFAULT_MAX_INBOUND_BYTES, type StdioTransportOptions, type TransportHooks } from "./options.js";
import { LineWriter } from "./writer.js";

export class HardenedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  readonly #stdin: Readable;
  readonly #hooks: TransportHooks;
  readonly #framer: LineFramer;
  readonly #writer: LineWriter;
  readonly #ledger = new RequestLedger();
  readonly #flushTimeoutMs: number;
  readonly #flow: InputFlow;
  #started = false;
  #intakeOpen = false;
  #closed = false;
  /** Ids of requests this server sent to the client, whose responses are expected. */
  readonly #outbound = new Set<string | number>();

  constructor(options: StdioTransportOptions) {
    this.#stdin = options.stdin;
    this.#hooks = options;
    this.#framer = new LineFramer(options.maxInboundBytes ?? DEFAULT_MAX_INBOUND_BYTES);
    this.#flushTimeoutMs = options.flushTimeoutMs ?? 2000;
    this.#flow = new InputFlow(
      {
        stdin: this.#stdin,
        intakeOpen: () => this.#intakeOpen,
        run: (frame) => this.#handleFrame(frame),
        pass: (message) => this.#dispatch(message, undefined),
        emit: (payload) => void this.#emit(payload),
        finishInput: () => this.#finishInput(),
        report: this.#report,
      },
      options.stallMs ?? 3000,
    );
    this.#writer = new LineWriter(
      options.stdout,
      (err) => {
        this.#hooks.onOutputClosed?.(err);
      },
      // Flow control: while the client is not reading answers, stop dispatching its requests, so
      // a flood from a client that never reads cannot grow our memory without bound.
      (blocked) => this.#flow.setBlocked(blocked),
      options.maxQueuedBytes,
    );
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error("HardenedStdioTransport already started");
    this.#started = true;
    this.#intakeOpen = true;
    this.#stdin.on("data", this.#onData);
    this.#stdin.on("end", this.#onEnd);
    this.#stdin.on("error", this.#onInputError);
  }

  /** Requests received and not yet answered. */
  get inFlight(): number {
    return this.#ledger.size;
  }

  /** Stop reading stdin; requests already received keep running and are still answered. */
  stopIntake(): void {
    if (!this.#intakeOpen) return;
    this.#intakeOpen = false;
    this.#stdin.off("data", this.#onData);
    this.#stdin.off("end", this.#onEnd);
    this.#stdin.pause();
    this.#flow.reset();
  }

  /** Resolves once every received request has been answered, or after `timeoutMs`. */
  whenIdle(timeoutMs: number): Promise<boolean> {
    return this.#ledger.whenIdle(timeoutMs);
  }

  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    if (this.#closed) return;
    const msg = message as Record<string, unknown>;
    if ("method" in msg) {
      if (typeof msg.id === "string" || typeof msg.id === "number") this.#outbound.add(msg.id);
      await this.#writer.write(JSON.stringify(message));
      return;
    }
    const entry = typeof msg.id === "number" ? this.#ledger.settle(msg.id) : undefined;
    // A response to nothing in flight (cancelled, or answered at shutdown) would carry a private
    // id the client never sent: drop it rather than confuse the client.
    if (!entry) return;
    const privateId = msg.id as number;
    let out: JSONRPCMessage = message;
    try {
      out = this.#hooks.onResponse?.(privateId, message) ?? message;
    } catch (err) {
      this.#report(err);
    }
    const restored = { ...(out as object), id: entry.original };
    await (entry.batch ? this.#answerInBatch(entry.batch, restored) : this.#emit(restored));
  }

  /** Answer every request still in flight with a shutdown error, flush, and report closed. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.stopIntake();
    for (const entry of this.#ledger.drain()) {
      const reply = fault(
        entry.original,
        "cave_shutting_down",
        "the server stopped before this request finished",
      );
      if (entry.batch) void this.#answerInBatch(entry.batch, reply);
      else void this.#emit(reply);
    }
    this.#closed = true;
    // A client that stopped reading (without closing) would hold the flush forever: bounded.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.#writer.flush(),
      new Promise<void>((r) => {
        timer = setTimeout(r, this.#flushTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    this.onclose?.();
  }

  readonly #onData = (chunk: Buffer | string): void => {
    const buf = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    this.#flow.take(this.#framer.push(buf));
  };

  readonly #onEnd = (): void => {
    this.#flow.end(this.#framer.end());
  };

  /** The one way a fault reaches the server's log: it costs a line of stderr, never the reader. */
  readonly #report = (err: unknown): void => {
    this.onerror?.(asError(err));
  };

  #finishInput(): void {
    if (!this.#intakeOpen) return;
    this.stopIntake();
    this.#hooks.onInputClosed?.("eof");
  }

  readonly #onInputError = (err: Error): void => {
    this.#report(err);
    this.stopIntake();
    this.#hooks.onInputClosed?.("error");
  };

  #handleFrame(frame: Frame): void {
    try {
      this.#handleFrameUnsafe(frame);
    } catch (err) {
      // A fault here must cost one line, never the reader.
      this.#report(err);
      void this.#emit(fault(null, "cave_internal_error", "the line could not be dispatched"));
    }
  }

  #handleFrameUnsafe(frame: Frame): void {
    if (frame.kind === "oversized") {
      void this.#emit(lineTooLarge(frame));
      return;
    }
    const decoded = decodeLine(frame.bytes);
    if (decoded.kind === "skip") return;
    if (decoded.kind === "bad") {
      let note: string | undefined;
      try {
        note = decoded.text ? this.#hooks.onUnparseable?.(decoded.text) : undefined;
      } catch (err) {
        this.#report(err);
      }
      void this.#emit(parseError(`${decoded.reason}${note ? ` ${note}` : ""}`));
      return;
    }
    if (!Array.isArray(decoded.value)) {
      this.#dispatch(decoded.value, undefined);
      return;
    }
    if (decoded.value.length === 0) {
      void this.#emit(invalidRequest(null, "empty batch"));
      return;
    }
    const batch: Batch = { responses: [], pending: 0, sealed: false };
    for (const item of decoded.value) this.#dispatch(item, batch);
    batch.sealed = true;
    if (batch.pending === 0 && batch.responses.length > 0) void this.#emit(batch.responses);
  }

  #dispatch(value: unknown, batch: Batch | undefined): void {
    const c = classify(value);
    if (c.kind === "invalid") {
      const reply = invalidRequest(c.id, c.reason);
      if (batch) batch.responses.push(reply);
      else void this.#emit(reply);
      return;
    }
    if (c.kind === "request") {
      const privateId = this.#ledger.open(c.message.id, batch);
      const renamed = { ...c.message, id: privateId } as JSONRPCMessage;
      try {
        this.#hooks.onRequest?.(privateId, c.message);
        this.#deliver(renamed);
      } catch (err) {
        this.#report(err);
        void this.send(
          fault(privateId, "cave_internal_error", "the request could not be dispatched") as JSONRPCMessage,
        );
      }
      return;
    }
    if (c.kind === "notification" && c.message.method === "notifications/cancelled") {
      const params = (c.message as { params?: { requestId?: unknown } }).params;
      const target = this.#ledger.privateIdOf(params?.requestId);
      if (target === undefined) return; // cancelling something unknown or finished: nothing to do
      // The SDK never answers a cancelled request (MCP cancellation), so it leaves the ledger now;
      // otherwise shutdown would wait for it and then answer it with a spurious error.
      this.#ledger.settle(target);
      try {
        this.#hooks.onCancelled?.(target);
      } catch (err) {
        this.#report(err);
      }
      this.#deliver({ ...c.message, params: { ...params, requestId: target } } as JSONRPCMessage);
      return;
    }
    if (c.kind === "response") {
      const id = (c.message as { id?: unknown }).id;
      if ((typeof id !== "string" && typeof id !== "number") || !this.#outbound.delete(id)) {
        // The SDK would log the whole message; a flood of them must cost one short line each.
        const shown = JSON.stringify(id ?? null).slice(0, 40);
        this.#report(new Error(`ignored a response (id ${shown}) to no request of this server`));
        return;
      }
    }
    try {
      this.#deliver(c.message);
    } catch (err) {
      this.#report(err);
    }
  }

  #deliver(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }

  #answerInBatch(batch: Batch, reply: object): Promise<void> {
    batch.responses.push(reply);
    batch.pending--;
    if (batch.sealed && batch.pending === 0) return this.#emit(batch.responses);
    return Promise.resolve();
  }

  #emit(payload: object): Promise<void> {
    return this.#writer.write(JSON.stringify(payload));
  }
}
