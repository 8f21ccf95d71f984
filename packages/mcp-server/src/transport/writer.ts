// Ordered line writes to a byte stream. Contract: writes land in call order; once the stream
// reports backpressure, later writes wait for 'drain' instead of piling up in memory; a stream
// that errors or closes (EPIPE: the client hung up) turns every later write into a no-op and is
// reported once through `onGone`, never as a thrown error or an unhandled 'error' event.
import type { Writable } from "node:stream";

export class LineWriter {
  readonly #stream: Writable;
  readonly #onGone: (err?: Error) => void;
  #gone = false;
  #ready: Promise<void> = Promise.resolve();
  #last: Promise<void> = Promise.resolve();
  #wakeDrain: (() => void) | undefined;
  readonly #pending = new Set<() => void>();

  constructor(stream: Writable, onGone: (err?: Error) => void) {
    this.#stream = stream;
    this.#onGone = onGone;
    stream.on("error", (err: Error) => this.#markGone(err));
    stream.on("close", () => this.#markGone());
  }

  /** True once the other end has gone away; writes are dropped from then on. */
  get gone(): boolean {
    return this.#gone;
  }

  /** Queue one line (a newline is appended); resolves when the stream has taken it or is gone. */
  write(line: string): Promise<void> {
    const done = this.#ready.then(() => this.#writeNow(`${line}\n`));
    this.#last = done;
    return done;
  }

  /** Resolves when every queued line has been handed to the stream (or the stream is gone). */
  flush(): Promise<void> {
    return this.#last;
  }

  #writeNow(data: string): Promise<void> {
    if (this.#gone) return Promise.resolve();
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
        this.#markGone(err instanceof Error ? err : new Error(String(err)));
        resolve();
        return;
      }
      if (!ok && !this.#gone) {
        this.#ready = new Promise<void>((wake) => {
          this.#wakeDrain = wake;
          this.#stream.once("drain", () => {
            this.#wakeDrain = undefined;
            wake();
          });
        });
      }
    });
  }

  #markGone(err?: Error): void {
    if (this.#gone) return;
    this.#gone = true;
    this.#wakeDrain?.();
    for (const resolve of [...this.#pending]) resolve();
    this.#onGone(err);
  }
}
