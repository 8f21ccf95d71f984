// `stats` and `chips` for people and scripts. Contract: they open the same stores the server
// uses (so they see what any server process wrote), print a short table or one JSON object with
// --json, and exit 0, or 1 when the thing asked for does not exist. `stats` leads with the
// savings journal (today, one session, all time; retrieves netted out) and the same figures are
// under `savings` in --json.
import { type ChipMeta, isChipStoreError, parseChipRef } from "@caveman/chip-store";
import { startOfLocalDay, summarize } from "@caveman/savings";
import type { Command } from "../args.js";
import type { Config } from "../config.js";
import { stderrLogger } from "../logger.js";
import { savingsJournal } from "../savings.js";
import { describeStore, openStores } from "../stores.js";
import { checkTeam } from "../team.js";
import { type Io, writeOut } from "./io.js";
import { renderSavings } from "./savingsView.js";

export async function runStats(
  command: Extract<Command, { name: "stats" }>,
  config: Config,
  io: Io,
): Promise<number> {
  const journal = savingsJournal(config);
  const savings = summarize(journal.read(), {
    dayStart: startOfLocalDay(Date.now()),
    ...(command.session ? { session: command.session } : {}),
  });
  const stores = openStores(config, stderrLogger(io.stderr));
  try {
    const ccr = stores.ccr.stats();
    const chips = stores.chips.list().length;
    const team = stores.team ? await checkTeam(stores.team) : undefined;
    const out = {
      savings: { ...savings, journal: journal.path },
      store: { ...stores.store, ...ccr },
      chips: { dir: config.chipDir, count: chips },
      ...(team ? { team } : {}),
    };
    if (command.json) await writeOut(io, `${JSON.stringify(out)}\n`);
    else {
      await writeOut(
        io,
        `${renderSavings(savings, journal.path)}\n` +
          `store    ${describeStore(stores.store)}\n` +
          `entries  ${ccr.entries} (${ccr.bytes} bytes of ${ccr.budgetBytes}, ${ccr.hits} hits)\n` +
          `chips    ${chips} in ${config.chipDir}\n` +
          (team ? `team     ${team.detail}\n` : ""),
      );
    }
    return 0;
  } finally {
    stores.close();
  }
}

function line(m: ChipMeta): string {
  const where = m.origin ? ` ${m.origin.path}:${m.origin.start_line}-${m.origin.end_line}` : "";
  return `chip://${m.id}  ${m.kind.padEnd(7)} ${m.tool.padEnd(16)} ${String(m.bytes).padStart(8)}B  ${m.created_at}${where}  ${m.preview}`;
}

export async function runChips(
  command: Extract<Command, { name: "chips" }>,
  config: Config,
  io: Io,
): Promise<number> {
  const stores = openStores(config, stderrLogger(io.stderr));
  try {
    const chips = stores.chips;
    if (command.action === "list") {
      const list = chips.list();
      if (command.json) await writeOut(io, `${JSON.stringify(list)}\n`);
      else await writeOut(io, list.length ? `${list.map(line).join("\n")}\n` : "");
      return 0;
    }
    if (command.action === "clear") {
      const n = chips.clear();
      io.stderr.write(`caveman-mcp: removed ${n} chip(s) from ${config.chipDir}\n`);
      return 0;
    }
    const id = parseChipRef(command.id ?? "");
    if (!id) {
      io.stderr.write(`caveman-mcp: "${command.id}" is not a chip id (6 or 12 hex digits, or chip://id)\n`);
      return 2;
    }
    try {
      const chip = chips.get(id);
      if (command.json) await writeOut(io, `${JSON.stringify({ ...chip, data: undefined })}\n`);
      else await writeOut(io, chips.replay(id));
      return 0;
    } catch (err) {
      if (isChipStoreError(err)) {
        io.stderr.write(`caveman-mcp: ${err.message}\n`);
        return 1;
      }
      throw err;
    }
  } finally {
    stores.close();
  }
}
