// Opening the stores the config names. Contract: the CCR store falls back to memory when SQLite
// cannot open (and says why in `store.fallback`, which caveman_stats and doctor show); the chip
// store falls back to memory-only chips when its directory cannot be created, and the undo
// journal then moves to a private temp directory. Nothing here exits and nothing here hangs.
// One write path for originals: the server, the CLI and the proxy store through the tiered store
// (local first, then the team store when one is configured), a hook through the queueing store
// (local, and queued in the file's outbox; it never connects anywhere). What is queued reaches
// the team store from any sender: a long-lived server or proxy, or `caveman-mcp flush`, which a
// short-lived process starts in the background when nobody sends (`startSenderIfNeeded`).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  type CcrStore,
  openMemoryStore,
  openTieredStore,
  type TeamStore,
  type TieredStore,
} from "@caveman/ccr-store";
import { openSqliteStore } from "@caveman/ccr-store/sqlite";
import { type ChipStore, isChipStoreError, openChipStore } from "@caveman/chip-store";
import { createEditor, type Editor } from "@caveman/edit-ops";
import type { Logger, StoreInfo } from "@caveman/mcp-server";
import type { Config } from "./config.js";
import { ensureDir } from "./dirs.js";
import { ConfigError } from "./errors.js";
import { openTeam } from "./team.js";

export { ensureDir };

export interface Stores {
  /** The local store (SQLite, or memory). */
  ccr: CcrStore;
  /** What the tools use: the local store first, then the team store when `--ccr-url` names one. */
  originals: TieredStore;
  team: TeamStore | undefined;
  store: CcrInfo;
  chips: ChipStore;
  chipsPersisted: boolean;
  /** Where the undo journal lives (beside the chips, or a temp dir when they are memory-only). */
  journalDir: string;
  /**
   * Close everything. The local store closes at once; the team side (a sender's last round, the
   * link's goodbye) is given `graceMs` (default 5000) and resolves then, whatever is left.
   */
  close(graceMs?: number): Promise<void>;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Where originals are kept, as the server reports it (start line, doctor, caveman_stats). */
export interface CcrInfo extends StoreInfo {
  /** The SQLite library in use (sqlite only). */
  driver?: "node:sqlite" | "better-sqlite3";
  /** False when the database could only be opened read-only: originals are read, not stored. */
  writable: boolean;
}

/** The one-line notice for originals that will not outlive this process, with its cause. */
function memoryNotice(cause: string): string {
  return `originals are kept in memory only and will be lost at exit: ${cause}`;
}

function openCcr(config: Config, logger: Logger): { ccr: CcrStore; store: CcrInfo } {
  if (config.store.kind === "memory") {
    return { ccr: openMemoryStore(), store: { backend: "memory", writable: true } };
  }
  const path = config.store.path;
  try {
    ensureDir(dirname(path));
    const ccr = openSqliteStore({
      path,
      ...(config.sqliteBinding ? { nativeBinding: config.sqliteBinding } : {}),
    });
    const { driver, writable } = describeOpen(ccr);
    if (!writable) {
      logger.warn(
        `CCR store at ${path} is read-only: stored originals can be retrieved, new ones are not stored (compress passes input through)`,
      );
    }
    return { ccr, store: { backend: "sqlite", path, writable, ...(driver ? { driver } : {}) } };
  } catch (err) {
    // stats, doctor and the start line show one line; the full reason (a require stack, say) goes to stderr.
    const why = message(err);
    const fallback = memoryNotice(why.split("\n")[0] ?? why);
    logger.warn(`CCR store at ${path} cannot open (${why}); ${fallback.split(":")[0]}`);
    return { ccr: openMemoryStore(), store: { backend: "memory", path, fallback, writable: true } };
  }
}

/** Driver and writability of an open store; a stats call that fails (a lock held at start) must
 * not cost the store itself, so it then reports what an open SQLite store is by default. */
function describeOpen(ccr: CcrStore): { driver?: "node:sqlite" | "better-sqlite3"; writable: boolean } {
  try {
    const s = ccr.stats();
    return { writable: s.writable, ...(s.driver ? { driver: s.driver } : {}) };
  } catch {
    return { writable: true };
  }
}

/** How the start line and doctor name the store, e.g. `sqlite (node:sqlite) /home/u/.caveman/ccr.db`. */
export function describeStore(store: CcrInfo, fileMode?: string): string {
  if (store.backend === "sqlite") {
    const mode = fileMode === undefined ? "" : ` (mode ${fileMode})`;
    const readOnly = store.writable ? "" : ", READ-ONLY: new originals are not stored";
    return `sqlite (${store.driver ?? "unknown driver"}) ${store.path ?? ""}${mode}${readOnly}`;
  }
  return store.fallback
    ? `memory: ${store.fallback}`
    : "memory (--ephemeral: originals last only as long as this process)";
}

function openChips(config: Config, logger: Logger): { chips: ChipStore; persisted: boolean } {
  const options = {
    dir: config.chipDir,
    capacity: config.chipMax,
    ...(config.chipTtlMs ? { ttlMs: config.chipTtlMs } : {}),
  };
  try {
    ensureDir(config.chipDir);
    return { chips: openChipStore(options), persisted: true };
  } catch (err) {
    // A bad option is the configuration's fault, not the directory's: refuse to start (exit 2).
    // So is a directory we must not use as it is (refused untouched, never chmod'ed).
    if (isChipStoreError(err) && (err.code === "chip_invalid_option" || err.code === "chip_unsafe_dir"))
      throw new ConfigError(err.message.replace(/^chip_(invalid_option|unsafe_dir): /, ""), { cause: err });
    logger.warn(
      `chip directory ${config.chipDir} cannot be used (${message(err)}); chips are kept in memory only`,
    );
    return { chips: openChipStore({ ...options, persist: false }), persisted: false };
  }
}

/**
 * The stores of a command. `send`: this process delivers the outbox while it runs (the server,
 * the proxy, `flush`); the CLI's compress writes through and leaves what failed to a sender.
 */
export function openStores(config: Config, logger: Logger, opts: { send?: boolean } = {}): Stores {
  const { ccr, store } = openCcr(config, logger);
  const team = openTeam(config, logger);
  const originals = openTieredStore({ local: ccr, team, logger, ...(opts.send ? { send: true } : {}) });
  const { chips, persisted } = openChips(config, logger);
  // The undo journal lives beside the chips (the chip store ignores names that are not chip
  // files); when the chip directory is unusable it gets a private temp directory instead.
  let journalDir = join(config.chipDir, "undo");
  try {
    if (!persisted) throw new Error("chip directory unusable");
    ensureDir(journalDir);
  } catch {
    journalDir = mkdtempSync(join(tmpdir(), "caveman-mcp-undo-"));
  }
  return {
    ccr,
    originals,
    team,
    store,
    chips,
    chipsPersisted: persisted,
    journalDir,
    async close(graceMs = 5000) {
      try {
        chips.close();
      } catch (err) {
        logger.warn(`closing a store failed: ${message(err)}`);
      }
      const closing = originals
        .close()
        .catch((err: unknown) => logger.warn(`closing a store failed: ${message(err)}`));
      await Promise.race([closing, new Promise((r) => setTimeout(r, graceMs).unref())]);
    },
  };
}

export function openEditor(config: Config, journalDir: string): Editor {
  return createEditor({ roots: config.roots, journalDir });
}
