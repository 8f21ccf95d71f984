// The hardened stdio transport: an SDK `Transport` over injected byte streams.
// Contract (DESIGN.md section 4): every line a client sends gets exactly the answer JSON-RPC 2.0
// prescribes — -32700 for a malformed line, -32600 for JSON that is not a message, one array for a
// batch, nothing for a notification, `cave_payload_too_large` for a line over the cap — and the
// reader always resynchronises at the next newline. Request ids are renamed to private integers
// on the way in and restored on the way out, so duplicate or batched ids can never collide inside
// the SDK. The transport never throws into the stream machinery and never writes anything to
// stdout that is not one JSON-RPC message per line.
// Bounded memory: a partial line costs at most about twice its size (framing.ts); answers queued
// for a client that does not read are bounded (writer.ts); while output is blocked, complete
// lines are held undispatched, and past HELD_LIMIT bytes of them stdin is paused (backpressure
// for a client that reads, only slower). A paused stdin would hide EOF, so if output then makes
// no progress for `stallMs` (default 3 s) reading resumes in shedding mode: requests are read but
// not run, and answered `cave_overloaded` once output flows again (the first MAX_SHED ids; the
// rest are counted on stderr). EOF is therefore always seen: with nothing held the server is
// told input closed at once; otherwise held lines wait for output to move, and once output is
// proven stalled (shedding, or `stallMs` after EOF) they are dropped (counted on stderr) and the
// server is told input closed, so it drains (bounded by `flushTimeoutMs`) and exits.
// A response from the client to no request of ours (a stray) is dropped and reported in one
// short line, never handed to the SDK (which would log the whole message).
import type { Readable, Writable } from "node:stream";
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { type Frame, LineFramer } from "./framing.js";
import { type Batch, RequestLedger } from "./ledger.js";
import {
  classify,
  decodeLine,
  errorResponse,
  INTERNAL_ERROR,
  INVALID_REQUEST,
  OVERLOADED,
  PARSE_ERROR,
  PAYLOAD_TOO_LARGE,
  sniffId,
} from "./message.js";
import { LineWriter } from "./writer.js";

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

/** Bytes of complete lines held while output is blocked; past this, stdin is paused. */
const HELD_LIMIT = 1024 * 1024;
/** Shed requests whose ids are kept to answer `cave_overloaded` later. */
const MAX_SHED = 1000;
/** What one held line costs besides its bytes (its Buffer and frame objects), for the limit. */
const HELD_OVERHEAD = 400;

function heldCost(frame: Frame): number {
  return (frame.kind === "line" ? frame.bytes.length : 0) + HELD_OVERHEAD;
}

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
  readonly #stallMs: number;
  #started = false;
  #intakeOpen = false;
  #closed = false;
  /** Output is blocked: complete lines wait in #held instead of being dispatched. */
  #blocked = false;
  #held: Frame[] = [];
  #heldBytes = 0;
  #shed: RequestId[] = [];
  #shedUncounted = 0;
  /** Output made no progress for stallMs while stdin was paused: read on, run nothing. */
  #shedding = false;
  #paused = false;
  #eof = false;
  #stallTimer: NodeJS.Timeout | undefined;
  /** Ids of requests this server sent to the client, whose responses are expected. */
  readonly #outbound = new Set<string | number>();

  constructor(options: StdioTransportOptions) {
    this.#stdin = options.stdin;
    this.#hooks = options;
    this.#framer = new LineFramer(options.maxInboundBytes ?? DEFAULT_MAX_INBOUND_BYTES);
    this.#flushTimeoutMs = options.flushTimeoutMs ?? 2000;
    this.#stallMs = options.stallMs ?? 3000;
    this.#writer = new LineWriter(
      options.stdout,
      (err) => {
        this.#hooks.onOutputClosed?.(err);
      },
      // Flow control: while the client is not reading answers, stop dispatching its requests, so
      // a flood from a client that never reads cannot grow our memory without bound.
      (blocked) => this.#onBlocked(blocked),
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
    clearTimeout(this.#stallTimer);
    this.#held = [];
    this.#heldBytes = 0;
    this.#shed = [];
    this.#shedUncounted = 0;
    this.#shedding = false;
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
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
    }
    const restored = { ...(out as object), id: entry.original };
    await (entry.batch ? this.#answerInBatch(entry.batch, restored) : this.#emit(restored));
  }

  /** Answer every request still in flight with a shutdown error, flush, and report closed. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.stopIntake();
    for (const entry of this.#ledger.drain()) {
      const reply = errorResponse(
        entry.original,
        INTERNAL_ERROR,
        "cave_shutting_down: the server stopped before this request finished",
        {
          code: "cave_shutting_down",
        },
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
    this.#take(this.#framer.push(buf));
  };

  readonly #onEnd = (): void => {
    this.#eof = true;
    this.#take(this.#framer.end());
    if (this.#held.length === 0 && this.#shed.length === 0) this.#finishInput();
    else if (this.#shedding)
      this.#giveUp(); // output already proven stalled
    else this.#watchStall();
  };

  /** Dispatch frames; hold them while output is blocked (pausing stdin past HELD_LIMIT); shed them once output is stalled. */
  #take(frames: Frame[]): void {
    for (const frame of frames) {
      if (!this.#blocked && this.#held.length === 0) {
        this.#handleFrame(frame);
      } else if (this.#shedding) {
        this.#shedFrame(frame);
      } else {
        this.#held.push(frame);
        this.#heldBytes += heldCost(frame);
      }
    }
    if (this.#heldBytes > HELD_LIMIT && !this.#shedding && !this.#paused && this.#intakeOpen) {
      this.#paused = true;
      this.#stdin.pause();
      this.#watchStall();
    }
  }

  /** Read but not run: remember the request's id (if it has one) to answer cave_overloaded. */
  #shedFrame(frame: Frame): void {
    const id =
      frame.kind === "line"
        ? sniffId(frame.bytes.subarray(0, 512).toString("utf8"), frame.bytes.subarray(-512).toString("utf8"))
        : sniffId(frame.head, frame.tail);
    if (id === null) return;
    if (this.#shed.length < MAX_SHED) this.#shed.push(id);
    else this.#shedUncounted++;
  }

  #onBlocked(blocked: boolean): void {
    if (!this.#intakeOpen) return;
    this.#blocked = blocked;
    if (blocked) {
      if (this.#eof || this.#paused) this.#watchStall();
      return;
    }
    clearTimeout(this.#stallTimer);
    this.#stallTimer = undefined;
    this.#shedding = false;
    // Dispatch held lines in order until output blocks again, then answer what was shed.
    while (this.#held.length > 0 && !this.#blocked && this.#intakeOpen) {
      const frame = this.#held.shift()!;
      this.#heldBytes -= heldCost(frame);
      this.#handleFrame(frame);
    }
    while (this.#held.length === 0 && this.#shed.length > 0 && !this.#blocked && this.#intakeOpen) {
      const id = this.#shed.shift()!;
      void this.#emit(
        errorResponse(
          id,
          OVERLOADED,
          "cave_overloaded: this request was not run: it arrived while the client had read no answers for a while and over 1 MiB of requests were waiting; send it again",
          { code: "cave_overloaded" },
        ),
      );
    }
    if (this.#shed.length === 0 && this.#shedUncounted > 0) {
      this.onerror?.(new Error(`${this.#shedUncounted} more shed request(s) could not be answered`));
      this.#shedUncounted = 0;
    }
    if (!this.#intakeOpen) return;
    if (this.#eof && this.#held.length === 0 && this.#shed.length === 0) {
      this.#finishInput();
      return;
    }
    if (this.#paused && this.#heldBytes <= HELD_LIMIT / 2) {
      this.#paused = false;
      this.#stdin.resume();
    }
  }

  /**
   * Output is blocked with input waiting (stdin paused, or EOF seen): if it makes no progress for
   * `stallMs`, stop waiting — after EOF give up on what is held, else read on and shed.
   */
  #watchStall(): void {
    clearTimeout(this.#stallTimer);
    this.#stallTimer = setTimeout(() => {
      if (!this.#intakeOpen) return;
      if (this.#eof) {
        this.#giveUp();
        return;
      }
      this.onerror?.(
        new Error(
          `the client has read no answers for ${this.#stallMs} ms while over 1 MiB of requests wait; further requests are answered cave_overloaded without being run`,
        ),
      );
      this.#shedding = true;
      this.#paused = false;
      this.#stdin.resume();
    }, this.#stallMs);
    this.#stallTimer.unref?.();
  }

  /** EOF and output stalled: drop what is held or shed (counted) and close the input. */
  #giveUp(): void {
    const dropped = this.#held.length + this.#shed.length + this.#shedUncounted;
    this.onerror?.(
      new Error(
        `stdin ended while the client read no answers; ${dropped} received request(s) were neither run nor answered`,
      ),
    );
    this.#finishInput();
  }

  #finishInput(): void {
    if (!this.#intakeOpen) return;
    this.stopIntake();
    this.#hooks.onInputClosed?.("eof");
  }

  readonly #onInputError = (err: Error): void => {
    this.onerror?.(err);
    this.stopIntake();
    this.#hooks.onInputClosed?.("error");
  };

  #handleFrame(frame: Frame): void {
    try {
      this.#handleFrameUnsafe(frame);
    } catch (err) {
      // A fault here must cost one line, never the reader.
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
      void this.#emit(
        errorResponse(null, INTERNAL_ERROR, "cave_internal_error: the line could not be dispatched", {
          code: "cave_internal_error",
        }),
      );
    }
  }

  #handleFrameUnsafe(frame: Frame): void {
    if (frame.kind === "oversized") {
      const id = sniffId(frame.head, frame.tail);
      void this.#emit(
        errorResponse(
          id,
          PAYLOAD_TOO_LARGE,
          `cave_payload_too_large: a line of ${frame.length} bytes is over the inbound cap; it was discarded`,
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
    if (decoded.kind === "bad") {
      let note: string | undefined;
      try {
        note = decoded.text ? this.#hooks.onUnparseable?.(decoded.text) : undefined;
      } catch (err) {
        this.onerror?.(err instanceof Error ? err : new Error(String(err)));
      }
      void this.#emit(
        errorResponse(null, PARSE_ERROR, `Parse error: ${decoded.reason}${note ? ` ${note}` : ""}`),
      );
      return;
    }
    if (!Array.isArray(decoded.value)) {
      this.#dispatch(decoded.value, undefined);
      return;
    }
    if (decoded.value.length === 0) {
      void this.#emit(errorResponse(null, INVALID_REQUEST, "Invalid Request: empty batch"));
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
      const reply = errorResponse(c.id, INVALID_REQUEST, `Invalid Request: ${c.reason}`);
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
        this.onerror?.(err instanceof Error ? err : new Error(String(err)));
        void this.send(
          errorResponse(
            privateId,
            INTERNAL_ERROR,
            "cave_internal_error: the request could not be dispatched",
            {
              code: "cave_internal_error",
            },
          ) as JSONRPCMessage,
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
        this.onerror?.(err instanceof Error ? err : new Error(String(err)));
      }
      this.#deliver({ ...c.message, params: { ...params, requestId: target } } as JSONRPCMessage);
      return;
    }
    if (c.kind === "response") {
      const id = (c.message as { id?: unknown }).id;
      if ((typeof id !== "string" && typeof id !== "number") || !this.#outbound.delete(id)) {
        // The SDK would log the whole message; a flood of them must cost one short line each.
        const shown = JSON.stringify(id ?? null).slice(0, 40);
        this.onerror?.(new Error(`ignored a response (id ${shown}) to no request of this server`));
        return;
      }
    }
    try {
      this.#deliver(c.message);
    } catch (err) {
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
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
