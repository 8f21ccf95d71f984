// Bookkeeping of requests in flight. Contract: every request gets a fresh private integer id (so
// duplicate or batched client ids can never collide inside the SDK); `settle` hands back the
// client's id and batch exactly once; `whenIdle` resolves when nothing is in flight any more.
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";

/** Responses of one batch array, written together once every request in it is answered. */
export interface Batch {
  responses: object[];
  pending: number;
  sealed: boolean;
}

export interface InFlight {
  original: RequestId;
  batch: Batch | undefined;
}

export class RequestLedger {
  readonly #inFlight = new Map<number, InFlight>();
  readonly #byOriginal = new Map<string, number>();
  readonly #idleWaiters: Array<() => void> = [];
  #nextId = 1;

  get size(): number {
    return this.#inFlight.size;
  }

  has(privateId: number): boolean {
    return this.#inFlight.has(privateId);
  }

  /** Register a request; returns its private id. Batched requests cannot be cancelled by id. */
  open(original: RequestId, batch: Batch | undefined): number {
    const privateId = this.#nextId++;
    this.#inFlight.set(privateId, { original, batch });
    if (batch) batch.pending++;
    else this.#byOriginal.set(keyOf(original), privateId);
    return privateId;
  }

  /** The private id of an unbatched request still in flight, for `notifications/cancelled`. */
  privateIdOf(original: unknown): number | undefined {
    if (typeof original !== "string" && typeof original !== "number") return undefined;
    return this.#byOriginal.get(keyOf(original));
  }

  /** Take a request out of the ledger; undefined when it was already settled. */
  settle(privateId: number): InFlight | undefined {
    const entry = this.#inFlight.get(privateId);
    if (!entry) return undefined;
    this.#inFlight.delete(privateId);
    if (this.#byOriginal.get(keyOf(entry.original)) === privateId)
      this.#byOriginal.delete(keyOf(entry.original));
    if (this.#inFlight.size === 0) this.#wakeIdle();
    return entry;
  }

  /** Every request still in flight, removed from the ledger. */
  drain(): InFlight[] {
    const all = [...this.#inFlight.values()];
    this.#inFlight.clear();
    this.#byOriginal.clear();
    this.#wakeIdle();
    return all;
  }

  whenIdle(timeoutMs: number): Promise<boolean> {
    if (this.#inFlight.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.#idleWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  #wakeIdle(): void {
    for (const wake of this.#idleWaiters.splice(0)) wake();
  }
}

function keyOf(id: RequestId): string {
  return typeof id === "number" ? `n:${id}` : `s:${id}`;
}
