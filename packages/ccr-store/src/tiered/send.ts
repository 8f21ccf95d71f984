// Sending the outbox: one round takes the rows due for this team store (leased, so two senders
// never send the same row at once), writes each original from the local store, and drops the row
// once the team store has it; a team store that is away leaves the rest due again later. A round
// then answers misses: handles some process could not find in the team store that this local
// store holds are uploaded again, so a flushed or restarted Redis heals itself.
import { isCcrStoreError } from "../errors.js";
import type { Outbox } from "../outbox.js";
import type { TeamStore } from "../team.js";
import type { CcrMeta, CcrRecord, CcrStore } from "../types.js";

export interface SendDeps {
  local: CcrStore;
  team: TeamStore;
  outbox: Outbox;
  target: string;
  warn(message: string): void;
  /** Rows not sent this round are due again after this long. */
  retryMs: number;
}

/** Rows taken per transaction; a round takes batches until none is due. */
const BATCH = 32;
/** How long a taken row is ours before another sender may take it (a sender that died). */
const LEASE_MS = 120_000;

export function metaOf(r: CcrRecord): CcrMeta {
  return {
    ...(r.kind !== null ? { kind: r.kind } : {}),
    ...(r.producer !== null ? { producer: r.producer } : {}),
    ...(r.tokensIn !== null ? { tokensIn: r.tokensIn } : {}),
    ...(r.tokensOut !== null ? { tokensOut: r.tokensOut } : {}),
    createdAt: r.createdAt,
  };
}

const why = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Write one local original to the team store. "sent" (or nothing left to send), "away" (the team
 * store cannot take it now; try later), or "refused" (it never will, e.g. too large for it).
 */
export async function sendOne(deps: SendDeps, handle: string): Promise<"sent" | "away" | "refused"> {
  let rec: CcrRecord | null;
  try {
    rec = deps.local.get(handle);
  } catch (err) {
    deps.warn(`${handle} cannot be sent to the team store: the local copy is unreadable (${why(err)})`);
    return "refused";
  }
  if (rec === null) return "sent";
  try {
    await deps.team.put(rec.original, metaOf(rec));
    return "sent";
  } catch (err) {
    if (isCcrStoreError(err, "store_unavailable")) return "away";
    deps.warn(`${handle} stays in the local store only: ${why(err)}`);
    return "refused";
  }
}

/** One round: the outbox, then the misses. Resolves with the rows sent; never rejects. */
export async function sendRound(deps: SendDeps): Promise<number> {
  const { team, outbox, target } = deps;
  let sent = 0;
  try {
    for (;;) {
      const rows = outbox.take(target, BATCH, LEASE_MS);
      if (rows.length === 0) break;
      for (const [i, handle] of rows.entries()) {
        const outcome = await sendOne(deps, handle);
        if (outcome === "away") {
          // The rest of this batch goes back too, due after the pause.
          for (const rest of rows.slice(i)) outbox.later(target, rest, deps.retryMs);
          return sent;
        }
        outbox.done(target, handle);
        if (outcome === "sent") sent += 1;
      }
    }
    const wanted = await team.wanted(100);
    const held = wanted.filter((h) => deps.local.has(h));
    const met: string[] = [];
    for (const handle of held) {
      const outcome = await sendOne(deps, handle);
      if (outcome === "away") break;
      met.push(handle);
    }
    if (met.length > 0) await team.unwant(met);
  } catch (err) {
    // A local fault (a busy or read-only file) or a team fault mid-round: the next round retries.
    if (!isCcrStoreError(err, "store_unavailable"))
      deps.warn(`sending to the team store paused: ${why(err)}`);
  }
  return sent;
}
