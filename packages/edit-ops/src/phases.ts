// Phase timings of edits, published on the diagnostics channel `caveman:edit-ops:phase` as
// `{ phase, ms }` — how a profiler or a benchmark sees where an edit's time goes without the
// library logging anything. With no subscriber (the normal case) a phase costs one boolean check.
// Phases: lock, read (bytes from disk, decode, hash), plan (positions, splice, encode), hash (the
// new bytes), diff, journal (entry written and fsynced; overlaps write), write (temp file, rename),
// fsync (inside journal and write: every file and directory fsync).

import { channel } from "node:diagnostics_channel";

export type Phase = "lock" | "read" | "plan" | "hash" | "diff" | "journal" | "write" | "fsync";

export const PHASE_CHANNEL = "caveman:edit-ops:phase";
const phases = channel(PHASE_CHANNEL);

/** Run `fn` as `phase`. */
export function timed<T>(phase: Phase, fn: () => T): T {
  if (!phases.hasSubscribers) return fn();
  const t0 = performance.now();
  const done = () => phases.publish({ phase, ms: performance.now() - t0 });
  const out = fn();
  if (out instanceof Promise) return out.finally(done) as T;
  done();
  return out;
}
