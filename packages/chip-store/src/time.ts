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
