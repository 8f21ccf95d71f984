// Test helper: the 301-line log the narrow tests query (a payment error with its stack frame at
// line 201 among heartbeats), the budget that turns budgeting off, and a token count.
import { measureTokens } from "../tokens.js";

export const LOG = Array.from({ length: 300 }, (_, i) =>
  i === 200
    ? "2026-11-30 10:03:20 ERROR payment declined for order 4821\n    at charge (src/pay.ts:10:3)"
    : `2026-11-30 10:00:${String(i % 60).padStart(2, "0")} INFO heartbeat ${i}`,
).join("\n");

export const ALL = { budget: Number.POSITIVE_INFINITY };

export const tokens = (s: string): number => measureTokens(s).tokens;
