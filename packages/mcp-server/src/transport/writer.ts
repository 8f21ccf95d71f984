// Ordered line writes to a byte stream. Contract: writes land in call order; once the stream
// reports backpressure, every later write waits for 'drain' instead of piling up in the stream's
// buffer (each write passes a gate that the previous write opens when the stream accepted it);
// a stream that errors or closes (EPIPE: the client hung up) turns every later write into a no-op
// and is reported once through `onGone`, never as a thrown error or an unhandled 'error' event.
// `onBlocked(true|false)` tells the owner when output stops and starts flowing again — the
// stream waits for 'drain', or more than `maxQueuedBytes` of lines are queued and not yet taken
// by the stream — so it can stop taking requests whose answers nobody is reading.
import type { Writable } from "node:stream";
import { asError } from "../errors.js";

const NEWLINE = Buffer.from("\n");

export class LineWriter {
  readonly #stream: Writable;
  readonly #onGone: (err?: Error) => void;
  #gone = false;
  /** Opens when the previous write was accepted by the stream (or the stream drained). */
  #gate: Promise<void> = Promise.resolve();
  #last: Promise<void> = Promise.resolve();
  #wakeDrain: (() => void) | undefined;
  readonly #pending = new Set<() => void>();

  readonly #onBlocked: (blocked: boolean) => void;
  readonly #maxQueuedBytes: number;
  /** Characters of lines accepted by write() and not yet handed to the stream. */
  #queued = 0;
  #waitingDrain = false;
  #blocked = false;

  constructor(
    stream: Writable,
    onGone: (err?: Error) => void,
    onBlocked: (blocked: boolean) => void = () => {},
    maxQueuedBytes = 4 * 1024 * 1024,
  ) {
    this.#stream = stream;
    this.#onGone = onGone;
    this.#onBlocked = onBlocked;
    this.#maxQueuedBytes = maxQueuedBytes;
    stream.on("error", (err: Error) => this.#markGone(err));
    stream.on("close", () => this.#markGone());
  }

  /** True while output is not flowing (see the contract); false once the stream is gone. */
  get blocked(): boolean {
    return this.#blocked;
  }

  /** True once the other end has gone away; writes are dropped from then on. */
  get gone(): boolean {
    return this.#gone;
  }

  /**
   * Queue one line (a newline is appended); resolves when the stream has taken it or is gone. A
   * Buffer is written as its bytes (the proxy passes lines it cannot decode through unchanged).
   */
  write(line: string | Buffer): Promise<void> {
    let open!: () => void;
    const next = new Promise<void>((r) => {
      open = r;
    });
    const data = typeof line === "string" ? `${line}\n` : Buffer.concat([line, NEWLINE]);
    this.#queued += data.length;
    this.#update();
    const done = this.#gate.then(() => {
      this.#queued -= data.length;
      return this.#writeNow(data, open);
    });
    this.#gate = next;
    this.#last = done;
    return done;
  }

  /** Resolves when every queued line has been handed to the stream (or the stream is gone). */
  flush(): Promise<void> {
    return this.#last;
  }

  #writeNow(data: string | Buffer, openGate: () => void): Promise<void> {
    if (this.#gone) {
      openGate();
      return Promise.resolve();
    }
    return new Promise<void>((settle) => {
      const resolve = (): void => {
        this.#pending.delete(resolve);
        settle();
      };
      this.#pending.add(resolve);
      let ok = true;
      try {
        ok = this.#stream.write(data, (err) => {
          if (err) this.#markGone(err);
          resolve();
        });
      } catch (err) {
        this.#markGone(asError(err));
        resolve();
        openGate();
        return;
      }
      if (ok || this.#gone) {
        this.#update();
        openGate();
        return;
      }
      const wake = (): void => {
        this.#wakeDrain = undefined;
        this.#stream.off("drain", wake);
        this.#waitingDrain = false;
        this.#update();
        openGate();
      };
      this.#wakeDrain = wake;
      this.#stream.on("drain", wake);
      this.#waitingDrain = true;
      this.#update();
    });
  }

  #update(): void {
    const blocked = !this.#gone && (this.#waitingDrain || this.#queued > this.#maxQueuedBytes);
    if (blocked === this.#blocked) return;
    this.#blocked = blocked;
    this.#onBlocked(blocked);
  }

  #markGone(err?: Error): void {
    if (this.#gone) return;
    this.#gone = true;
    this.#wakeDrain?.();
    this.#update();
    for (const resolve of [...this.#pending]) resolve();
    this.#onGone(err);
  }
}
