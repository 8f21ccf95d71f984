// Flow control between stdin and a client that may stop reading its answers. Contract: while
// output is blocked, complete lines are held undispatched, in order; past HELD_LIMIT bytes of
// them stdin is paused (backpressure for a client that reads, only slower). A paused stdin would
// hide EOF, so if output then makes no progress for `stallMs` reading resumes in shedding mode:
// requests are read but not run, and answered `cave_overloaded` once output flows again (the
// first MAX_SHED ids; the rest are counted on stderr). EOF is therefore always seen: with nothing
// held the input is finished at once; otherwise held lines wait for output to move, and once
// output is proven stalled (shedding, or `stallMs` after EOF) they are dropped (counted) and the
// input is finished, so the server drains and exits.
import type { Readable } from "node:stream";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import { fault } from "./faults.js";
import type { Frame } from "./framing.js";
import { classify, decodeLine, readableId, sniffId } from "./message.js";

/** Bytes of complete lines held while output is blocked; past this, stdin is paused. */
const HELD_LIMIT = 1024 * 1024;
/** Shed requests whose ids are kept to answer `cave_overloaded` later. */
const MAX_SHED = 1000;
/** What one held line costs besides its bytes (its Buffer and frame objects), for the limit. */
const HELD_OVERHEAD = 400;

function heldCost(frame: Frame): number {
  return (frame.kind === "line" ? frame.bytes.length : 0) + HELD_OVERHEAD;
}

/** What the flow needs from the transport that owns it. */
interface FlowHost {
  readonly stdin: Readable;
  /** False once intake has stopped: nothing more is run, held or answered from here. */
  intakeOpen(): boolean;
  /** Run one frame now. */
  run(frame: Frame): void;
  /** Hand on a message that makes the server write nothing (a response, a cancellation). */
  pass(message: unknown): void;
  emit(payload: object): void;
  /** Input is over: stop intake and tell the server. */
  finishInput(): void;
  report(err: Error): void;
}

export class InputFlow {
  readonly #host: FlowHost;
  readonly #stallMs: number;
  /** Output is blocked: complete lines wait in #held instead of being dispatched. */
  #blocked = false;
  #held: Frame[] = [];
  #heldBytes = 0;
  /** Requests read but not run, each to answer cave_overloaded (a batch's ids answer as one array). */
  #shed: Array<RequestId | RequestId[]> = [];
  #shedIds = 0;
  #shedUncounted = 0;
  /** Output made no progress for stallMs while stdin was paused: read on, run nothing. */
  #shedding = false;
  #paused = false;
  #eof = false;
  #stallTimer: NodeJS.Timeout | undefined;

  constructor(host: FlowHost, stallMs: number) {
    this.#host = host;
    this.#stallMs = stallMs;
  }

  /** Forget everything held or shed (intake stopped). */
  reset(): void {
    clearTimeout(this.#stallTimer);
    this.#held = [];
    this.#heldBytes = 0;
    this.#shed = [];
    this.#shedIds = 0;
    this.#shedUncounted = 0;
    this.#shedding = false;
  }

  /** Input ended; `last` are the frames the framer still had. */
  end(last: Frame[]): void {
    this.#eof = true;
    this.take(last);
    if (this.#held.length === 0 && this.#shed.length === 0) this.#host.finishInput();
    else if (this.#shedding)
      this.#giveUp(); // output already proven stalled
    else this.#watchStall();
  }

  /** Dispatch frames; hold them while output is blocked (pausing stdin past HELD_LIMIT); shed them once output is stalled. */
  take(frames: Frame[]): void {
    for (const frame of frames) {
      if (!this.#blocked && this.#held.length === 0) {
        this.#host.run(frame);
      } else if (this.#shedding) {
        this.#shedFrame(frame);
      } else {
        this.#held.push(frame);
        this.#heldBytes += heldCost(frame);
      }
    }
    if (this.#heldBytes > HELD_LIMIT && !this.#shedding && !this.#paused && this.#host.intakeOpen()) {
      this.#paused = true;
      this.#host.stdin.pause();
      this.#watchStall();
    }
  }

  /** The writer says output is blocked, or flows again. */
  setBlocked(blocked: boolean): void {
    const host = this.#host;
    if (!host.intakeOpen()) return;
    this.#blocked = blocked;
    if (blocked) {
      if (this.#eof || this.#paused) this.#watchStall();
      return;
    }
    clearTimeout(this.#stallTimer);
    this.#stallTimer = undefined;
    this.#shedding = false;
    // Dispatch held lines in order until output blocks again, then answer what was shed.
    while (this.#held.length > 0 && !this.#blocked && host.intakeOpen()) {
      const frame = this.#held.shift()!;
      this.#heldBytes -= heldCost(frame);
      host.run(frame);
    }
    while (this.#held.length === 0 && this.#shed.length > 0 && !this.#blocked && host.intakeOpen()) {
      const entry = this.#shed.shift()!;
      const ids = Array.isArray(entry) ? entry : [entry];
      this.#shedIds -= ids.length;
      const replies = ids.map((id) =>
        fault(
          id,
          "cave_overloaded",
          "this request was not run: it arrived while the client had read no answers for a while and over 1 MiB of requests were waiting; send it again",
        ),
      );
      host.emit(Array.isArray(entry) ? replies : replies[0]!);
    }
    if (this.#shed.length === 0 && this.#shedUncounted > 0) {
      host.report(new Error(`${this.#shedUncounted} more shed request(s) could not be answered`));
      this.#shedUncounted = 0;
    }
    if (!host.intakeOpen()) return;
    if (this.#eof && this.#held.length === 0 && this.#shed.length === 0) {
      host.finishInput();
      return;
    }
    if (this.#paused && this.#heldBytes <= HELD_LIMIT / 2) {
      this.#paused = false;
      host.stdin.resume();
    }
  }

  /**
   * Read but not run: remember each request's id to answer cave_overloaded (a batch's as one
   * array, as a batch must be answered). A response to a request of ours and a cancellation are
   * handed on: they cost no output, and the server may be waiting on the response (its own
   * roots/list). Anything else is dropped unanswered, so shedding never queues output.
   */
  #shedFrame(frame: Frame): void {
    if (frame.kind === "oversized") {
      this.#shedIdsOf([sniffId(frame.head, frame.tail)], false);
      return;
    }
    const decoded = decodeLine(frame.bytes);
    if (decoded.kind !== "json") return; // would be answered with id null: nobody waits on it
    const items = Array.isArray(decoded.value) ? decoded.value : [decoded.value];
    const ids: Array<RequestId | null> = [];
    for (const item of items) {
      if (isRequestLike(item)) ids.push(readableId((item as { id: unknown }).id));
      else if (isQuiet(item)) this.#host.pass(item);
    }
    this.#shedIdsOf(ids, Array.isArray(decoded.value));
  }

  #shedIdsOf(ids: Array<RequestId | null>, batch: boolean): void {
    const known = ids.filter((id): id is RequestId => id !== null);
    if (known.length === 0) return;
    if (this.#shedIds + known.length > MAX_SHED) {
      this.#shedUncounted += known.length;
      return;
    }
    this.#shedIds += known.length;
    this.#shed.push(batch ? known : known[0]!);
  }

  /**
   * Output is blocked with input waiting (stdin paused, or EOF seen): if it makes no progress for
   * `stallMs`, stop waiting — after EOF give up on what is held, else read on and shed.
   */
  #watchStall(): void {
    clearTimeout(this.#stallTimer);
    this.#stallTimer = setTimeout(() => {
      if (!this.#host.intakeOpen()) return;
      if (this.#eof) {
        this.#giveUp();
        return;
      }
      this.#host.report(
        new Error(
          `the client has read no answers for ${this.#stallMs} ms while over 1 MiB of requests wait; further requests are answered cave_overloaded without being run`,
        ),
      );
      this.#shedding = true;
      this.#paused = false;
      this.#host.stdin.resume();
    }, this.#stallMs);
    this.#stallTimer.unref?.();
  }

  /** EOF and output stalled: drop what is held or shed (counted) and close the input. */
  #giveUp(): void {
    const dropped = this.#held.length + this.#shedIds + this.#shedUncounted;
    this.#host.report(
      new Error(
        `stdin ended while the client read no answers; ${dropped} received request(s) were neither run nor answered`,
      ),
    );
    this.#host.finishInput();
  }
}

/** An object with a method and an id: a request (valid or not), whose sender waits for an answer. */
function isRequestLike(value: unknown): boolean {
  return (
    value !== null && typeof value === "object" && !Array.isArray(value) && "method" in value && "id" in value
  );
}

/** A response, or a cancellation: handing it on never makes the server write anything. */
function isQuiet(value: unknown): boolean {
  const c = classify(value);
  return (
    c.kind === "response" || (c.kind === "notification" && c.message.method === "notifications/cancelled")
  );
}
