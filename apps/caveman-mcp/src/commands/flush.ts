// `caveman-mcp flush`: send the originals waiting in the local store's outbox to the team store,
// answer the misses this store can answer, and exit. Hooks start it in the background when
// nobody else sends (see queued.ts); people run it after an outage. Contract: bounded — it waits
// at most CONNECT_MS for the team store and stops as soon as a round sends nothing (the outbox
// is empty, or the team store is away again); exit 0 when nothing is left waiting, 1 when some
// is (it stays queued for the next sender), 2 when no team store is configured.
import type { Command } from "../args.js";
import type { Config } from "../config.js";
import { stderrLogger } from "../logger.js";
import { openStores } from "../stores.js";
import { type Io, writeOut } from "./io.js";

const CONNECT_MS = 10_000;

export async function runFlush(
  command: Extract<Command, { name: "flush" }>,
  config: Config,
  io: Io,
): Promise<number> {
  const logger = stderrLogger(io.stderr);
  if (!config.team) {
    io.stderr.write("caveman-mcp flush: no team store is configured (--ccr-url / CAVEMAN_CCR_URL)\n");
    return 2;
  }
  // A sender for as long as it runs: hooks starting meanwhile see its heartbeat.
  const stores = openStores(config, logger, { send: true });
  let sent = 0;
  try {
    await stores.originals.team?.ready(CONNECT_MS).catch(() => undefined);
    for (;;) {
      const round = await stores.originals.flush();
      sent += round;
      if (round === 0 || stores.originals.pending() === 0) break;
    }
    const left = stores.originals.pending();
    const report = { sent, pending: left, team: stores.team?.status().url };
    if (command.json) await writeOut(io, `${JSON.stringify(report)}\n`);
    else
      io.stderr.write(
        `caveman-mcp flush: ${sent} original(s) sent to ${report.team}; ${left} still waiting${left ? ` (${stores.team?.status().lastError ?? "the team store is away"})` : ""}\n`,
      );
    return left === 0 ? 0 : 1;
  } finally {
    await stores.close();
  }
}
