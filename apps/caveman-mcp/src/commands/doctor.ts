// `doctor`: checks what the server would use and prints the config it would run with. Contract:
// read-only apart from creating missing store/chip directories (which the server would create
// too); each check is one line `ok|FAIL <what>: <detail>`; exit 0 when all pass, 1 otherwise.
import { accessSync, constants, statSync } from "node:fs";
import type { Command } from "../args.js";
import type { Config } from "../config.js";
import { describeStore, openStores } from "../stores.js";
import { checkTeam } from "../team.js";
import { VERSION } from "../version.js";
import { type Check, hookChecks } from "./hookCheck.js";
import type { SelfCommand } from "./hostFiles.js";
import { type Io, writeOut } from "./io.js";

function mode(path: string): string {
  return (statSync(path).mode & 0o777).toString(8).padStart(4, "0");
}

export async function runDoctor(
  command: Extract<Command, { name: "doctor" }>,
  config: Config,
  io: Io,
  self: SelfCommand,
): Promise<number> {
  const checks: Check[] = [];
  const quiet = { info() {}, warn() {}, error() {} };
  const stores = openStores(config, quiet);
  try {
    const s = stores.ccr.stats();
    const info = stores.store;
    // Memory that was not asked for (--ephemeral) and a store that cannot take new originals both
    // lose what compress would keep: that is a failure, not a detail.
    const persistent = info.backend === "sqlite" && info.writable;
    const asked = config.store.kind === "memory";
    const where = describeStore(info, info.backend === "sqlite" && info.path ? mode(info.path) : undefined);
    checks.push({
      ok: persistent || asked,
      what: "ccr store",
      detail: info.fallback
        ? `${info.path} cannot be used; ${describeStore(info)}`
        : `${where}, ${s.entries} entries, ${s.bytes} bytes`,
    });
    let chipDetail = `${config.chipDir}`;
    let chipOk = stores.chipsPersisted;
    if (chipOk) {
      try {
        accessSync(config.chipDir, constants.W_OK);
        chipDetail += ` (mode ${mode(config.chipDir)}), ${stores.chips.list().length} chips`;
        if ((statSync(config.chipDir).mode & 0o077) !== 0) chipDetail += "; warning: readable by others";
      } catch (err) {
        chipOk = false;
        chipDetail += ` not writable (${(err as NodeJS.ErrnoException).code})`;
      }
    } else chipDetail += " cannot be created; chips would be memory-only";
    checks.push({ ok: chipOk, what: "chip dir", detail: chipDetail });
    if (stores.team) checks.push({ what: "team store", ...(await checkTeam(stores.team)) });
  } finally {
    stores.close();
  }
  if (config.implicitRootRefusal)
    checks.push({ ok: false, what: "root", detail: config.implicitRootRefusal });
  for (const root of config.implicitRootRefusal ? [] : config.roots) {
    try {
      accessSync(root, constants.R_OK | constants.W_OK);
      checks.push({ ok: true, what: "root", detail: `${root} readable and writable` });
    } catch (err) {
      checks.push({
        ok: false,
        what: "root",
        detail: `${root} not readable/writable (${(err as NodeJS.ErrnoException).code})`,
      });
    }
  }
  checks.push(...(await hookChecks(config, self)));
  const effective = {
    version: VERSION,
    roots: config.roots,
    tools: config.families,
    store: config.store,
    sqlite_binding: config.sqliteBinding ?? null,
    chip_dir: config.chipDir,
    chip_max: config.chipMax,
    chip_ttl_seconds: config.chipTtlMs === undefined ? null : config.chipTtlMs / 1000,
    max_inbound_bytes: config.maxInboundBytes,
    max_result_bytes: config.maxResultBytes,
    engine_timeout_ms: config.engineTimeoutMs,
    // Never the password: the URL is shown masked.
    team: config.team
      ? {
          url: config.team.url.masked,
          namespace: config.team.url.namespace,
          password: config.team.url.password === undefined ? null : "***",
          tls_ca: config.team.tlsCaFile ?? null,
        }
      : null,
    sources: config.sources,
  };
  const allOk = checks.every((c) => c.ok);
  if (command.json) {
    await writeOut(io, `${JSON.stringify({ ok: allOk, checks, config: effective })}\n`);
  } else {
    const lines = checks.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.what}: ${c.detail}`);
    await writeOut(io, `${lines.join("\n")}\n\nconfig:\n${JSON.stringify(effective, null, 2)}\n`);
  }
  return allOk ? 0 : 1;
}
