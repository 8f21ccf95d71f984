// Sums of the journal for `caveman-mcp stats` and the status line. Contract: pure; a window's
// saving is what the model did not read — the originals' tokens minus the stand-ins' — minus every
// token a retrieve gave back (netted per kind, and never hidden: `retrieved` is its own column).
// A saving can be negative (a session that retrieved more than it saved), and is shown so.
import type { SavingsEntry } from "./entry.js";

export interface KindSums {
  kind: string;
  /** Compressions kept. */
  kept: number;
  /** Retrieves recorded. */
  retrieves: number;
  tokensIn: number;
  tokensOut: number;
  /** Tokens the retrieves returned. */
  retrievedTokens: number;
  /** tokensIn - tokensOut - retrievedTokens. */
  saved: number;
}

export interface WindowSums extends Omit<KindSums, "kind"> {
  /** Per kind, largest saving first. */
  kinds: KindSums[];
}

export interface SavingsSummary {
  today: WindowSums;
  /** The session asked for, else the one of the newest entry (by time) that names a session. */
  session: (WindowSums & { id: string }) | null;
  all: WindowSums;
}

function sums(entries: readonly SavingsEntry[]): WindowSums {
  const byKind = new Map<string, KindSums>();
  for (const e of entries) {
    let k = byKind.get(e.kind);
    if (!k) {
      k = { kind: e.kind, kept: 0, retrieves: 0, tokensIn: 0, tokensOut: 0, retrievedTokens: 0, saved: 0 };
      byKind.set(e.kind, k);
    }
    if (e.event === "kept") {
      k.kept++;
      k.tokensIn += e.tokensIn;
      k.tokensOut += e.tokensOut;
      k.saved += e.tokensIn - e.tokensOut;
    } else {
      k.retrieves++;
      k.retrievedTokens += e.tokensOut;
      k.saved -= e.tokensOut;
    }
  }
  const kinds = [...byKind.values()].sort((a, b) => b.saved - a.saved || a.kind.localeCompare(b.kind));
  const total = { kept: 0, retrieves: 0, tokensIn: 0, tokensOut: 0, retrievedTokens: 0, saved: 0 };
  for (const k of kinds) {
    total.kept += k.kept;
    total.retrieves += k.retrieves;
    total.tokensIn += k.tokensIn;
    total.tokensOut += k.tokensOut;
    total.retrievedTokens += k.retrievedTokens;
    total.saved += k.saved;
  }
  return { ...total, kinds };
}

/** Midnight of `now`'s day in the local time zone (the "today" a person means). */
export function startOfLocalDay(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

export function summarize(
  entries: readonly SavingsEntry[],
  options: { dayStart: number; session?: string },
): SavingsSummary {
  let id = options.session;
  if (id === undefined) {
    // The newest by time, not by line: two processes' clocks and appends need not agree on order.
    let newest = -Infinity;
    for (const e of entries) if (e.session !== undefined && e.at >= newest) [newest, id] = [e.at, e.session];
  }
  return {
    today: sums(entries.filter((e) => e.at >= options.dayStart)),
    session: id === undefined ? null : { id, ...sums(entries.filter((e) => e.session === id)) },
    all: sums(entries),
  };
}
