// created_at is written as RFC 3339 with nanoseconds (Go's RFC3339Nano), so a record written by the
// original Go tool and one written here sort the same way. The clock gives milliseconds; the six
// sub-millisecond digits carry a per-store sequence so that chips saved within one millisecond keep
// their FIFO order (the digits order saves, they do not claim sub-millisecond precision).

export interface Instant {
  ms: number;
  /** nanoseconds within the millisecond, 0..999999 */
  subNs: number;
}

export function formatInstant(t: Instant): string {
  const iso = new Date(t.ms).toISOString(); // 2026-11-30T16:40:00.123Z
  return `${iso.slice(0, 23)}${String(t.subNs).padStart(6, "0")}Z`;
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** Parses RFC 3339 (any fraction length, any offset); null when it is not one. */
export function parseInstant(text: unknown): Instant | null {
  if (typeof text !== "string") return null;
  const m = RFC3339.exec(text);
  if (!m) return null;
  const frac = (m[2] ?? "").padEnd(9, "0");
  const base = Date.parse(`${m[1]}.${frac.slice(0, 3)}${m[3]}`);
  if (Number.isNaN(base)) return null;
  return { ms: base, subNs: Number(frac.slice(3)) };
}

export function compareInstant(a: Instant, b: Instant): number {
  return a.ms - b.ms || a.subNs - b.subNs;
}

const MAX_SUB_NS = 999_999;

/**
 * The instant of a new chip: newer than `last` (this store's previous one) and than `newest` (the
 * newest chip it knows, its own or loaded from disk), so a clock that stalls or steps back (or a
 * restart within the same millisecond) cannot let a new chip sort before an older one and be
 * evicted first. A chip dated ahead of the clock (another host's skewed clock, a hostile file) is
 * not a floor: adopting it would stamp every later chip with its date, and a date near year 9999
 * would overflow into a created_at that no longer parses, so the chip would be unreadable on reload.
 */
export function nextInstant(ms: number, newest: Instant | undefined, last: Instant): Instant {
  const floor = newest && newest.ms <= ms && compareInstant(newest, last) > 0 ? newest : last;
  if (ms > floor.ms) return { ms, subNs: 0 };
  if (floor.subNs < MAX_SUB_NS) return { ms: floor.ms, subNs: floor.subNs + 1 };
  return { ms: floor.ms + 1, subNs: 0 };
}
