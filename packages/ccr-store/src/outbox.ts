// The outbox: which originals still have to reach which team store. A row names a handle (the
// bytes stay in the local store, which never drops a handle with a row) and a target (the team
// store's identity, so a row is only ever sent where it was meant to go). Every process that
// shares the local store shares its outbox: a short-lived hook queues and leaves, a long-lived
// server sends. A taken row is leased for a while, so two senders do not send it twice at once;
// a lease that runs out (its sender died) makes the row due again, so nothing is lost to a crash.
import { asPrepared } from "./handle.js";
import type { CcrStore } from "./types.js";

/** Rows of originals still to be written to a team store. */
export interface Outbox {
  /** True when rows outlive this process (the SQLite file), false for an in-memory outbox. */
  readonly durable: boolean;
  /** Queue `handle` for `target` (idempotent; a queued row stays as it is). */
  add(target: string, handle: string): void;
  /** Up to `max` rows due for `target`, oldest first, each leased for `leaseMs` from now. */
  take(target: string, max: number, leaseMs: number): string[];
  /** The row is done with (sent, or never sendable): drop it. */
  done(target: string, handle: string): void;
  /** Not sent this time: due again after `delayMs` (the lease is given back). */
  later(target: string, handle: string, delayMs: number): void;
  /** Rows queued for `target`. */
  size(target: string): number;
  /** Until when (epoch ms) some process has said it sends this outbox; 0 when none has. */
  senderUntil(): number;
  /** Say that this process sends the outbox until `until` (epoch ms). */
  heartbeat(until: number): void;
}

/** A local store whose every put is also queued for a team store, with no network at all. */
export interface QueueingStore extends CcrStore {
  /** Originals queued for the team store. */
  pending(): number;
  /** True when originals wait and no process has said it sends them. */
  needsSender(): boolean;
  /** Say that a sender is on its way (for `ms`), so that processes starting now do not start another. */
  claimSender(ms: number): void;
}

/**
 * The store of a short-lived process (a hook) with a team store configured: synchronous, local,
 * and every original queued in the local file's outbox (first, so a crash leaves a row or
 * nothing) for a sender to deliver. It never loads network code, let alone connects.
 */
export function openQueueingStore(opts: {
  local: CcrStore & { readonly outbox: Outbox };
  target: string;
  clock?: () => number;
}): QueueingStore {
  const { local, target } = opts;
  const clock = opts.clock ?? Date.now;
  const { outbox } = local;
  return {
    put(original, meta) {
      const prepared = asPrepared(original);
      outbox.add(target, prepared.handle);
      try {
        return local.put(prepared, meta);
      } catch (err) {
        outbox.done(target, prepared.handle);
        throw err;
      }
    },
    get: (handle) => local.get(handle),
    has: (handle) => local.has(handle),
    stats: () => local.stats(),
    close: () => local.close(),
    pending: () => outbox.size(target),
    needsSender: () => outbox.size(target) > 0 && outbox.senderUntil() < clock(),
    claimSender: (ms) => outbox.heartbeat(clock() + ms),
  };
}

interface Row {
  dueAt: number;
  queuedAt: number;
}

/** An outbox that lives as long as this process (for a memory local store). */
export function openMemoryOutbox(clock: () => number = Date.now): Outbox {
  const rows = new Map<string, Map<string, Row>>();
  let sender = 0;
  const of = (target: string): Map<string, Row> => {
    let m = rows.get(target);
    if (!m) {
      m = new Map();
      rows.set(target, m);
    }
    return m;
  };
  return {
    durable: false,
    add(target, handle) {
      const m = of(target);
      if (!m.has(handle)) m.set(handle, { dueAt: 0, queuedAt: clock() });
    },
    take(target, max, leaseMs) {
      const t = clock();
      const due = [...of(target)]
        .filter(([, r]) => r.dueAt <= t)
        .sort((a, b) => a[1].queuedAt - b[1].queuedAt);
      return due.slice(0, max).map(([handle, r]) => {
        r.dueAt = t + leaseMs;
        return handle;
      });
    },
    done(target, handle) {
      of(target).delete(handle);
    },
    later(target, handle, delayMs) {
      const r = of(target).get(handle);
      if (r) r.dueAt = clock() + delayMs;
    },
    size: (target) => of(target).size,
    senderUntil: () => sender,
    heartbeat(until) {
      sender = until;
    },
  };
}
