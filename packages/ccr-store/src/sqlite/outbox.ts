// The outbox in the SQLite file (table caveman_ccr_outbox, see schema.ts), shared by every
// process on the file. A take is one IMMEDIATE transaction (select the due rows, lease them), so
// two senders never lease the same row at once; busy waits are bounded like every other write.
import type { Outbox } from "../outbox.js";
import type { Policy } from "../policy.js";
import { now } from "../policy.js";
import { type SqlConnection, scalar, transaction } from "./driver.js";
import { T_META, T_OUTBOX } from "./schema.js";

/** The outbox on whichever connection the store has now (`db()` follows a replaced file). */
export function sqliteOutbox(
  db: () => SqlConnection,
  policy: Policy,
  retry: <T>(fn: () => T, what: string) => T,
): Outbox {
  const q = (sql: string) => db().prepare(sql);
  return {
    durable: true,
    add(target, handle) {
      const t = now(policy);
      retry(
        () =>
          q(`INSERT INTO ${T_OUTBOX} (target, handle, queued_at, due_at, attempts) VALUES (?, ?, ?, 0, 0)
            ON CONFLICT(target, handle) DO NOTHING`).run(target, handle, t),
        "queue for the team store",
      );
    },
    take(target, max, leaseMs) {
      const t = now(policy);
      return retry(
        () =>
          transaction(db(), "immediate", () => {
            const rows = q(
              `SELECT handle FROM ${T_OUTBOX} WHERE target = ? AND due_at <= ? ORDER BY queued_at LIMIT ?`,
            ).all(target, t, max);
            const lease = q(
              `UPDATE ${T_OUTBOX} SET due_at = ?, attempts = attempts + 1 WHERE target = ? AND handle = ?`,
            );
            return rows.map((r) => {
              lease.run(t + leaseMs, target, String(r.handle));
              return String(r.handle);
            });
          }),
        "take from the outbox",
      );
    },
    done(target, handle) {
      retry(() => q(`DELETE FROM ${T_OUTBOX} WHERE target = ? AND handle = ?`).run(target, handle), "outbox");
    },
    later(target, handle, delayMs) {
      const t = now(policy);
      retry(
        () =>
          q(`UPDATE ${T_OUTBOX} SET due_at = ? WHERE target = ? AND handle = ?`).run(
            t + delayMs,
            target,
            handle,
          ),
        "outbox",
      );
    },
    size: (target) =>
      Number(
        retry(() => scalar(q(`SELECT count(*) AS n FROM ${T_OUTBOX} WHERE target = ?`), target), "outbox"),
      ),
    senderUntil: () =>
      Number(retry(() => scalar(q(`SELECT value FROM ${T_META} WHERE key = 'sender_until'`)), "outbox") ?? 0),
    heartbeat(until) {
      retry(
        () =>
          q(`INSERT INTO ${T_META} (key, value) VALUES ('sender_until', ?)
            ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(until),
        "outbox",
      );
    },
  };
}
