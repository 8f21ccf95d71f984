// Opening the stores the config names. Contract: the CCR store falls back to memory when SQLite
// cannot open (and says why in `store.fallback`, which caveman_stats and doctor show); the chip
// store falls back to memory-only chips when its directory cannot be created, and the undo
// journal then moves to a private temp directory. Nothing here exits and nothing here hangs.
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
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
import { ConfigError } from "./errors.js";
import { openTeam } from "./team.js";

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
  close(): void;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Create `dir` and its missing parents one level at a time (0700). Node 20's recursive mkdir
 * spins forever on some pseudo filesystems (e.g. `mkdirSync("/proc/x", { recursive: true })`),
 * so the libraries' own recursive mkdir must only ever see a directory that already exists.
 */
export function ensureDir(dir: string): void {
  const missing: string[] = [];
  for (let cur = dir; !existsSync(cur); cur = dirname(cur)) {
    missing.push(cur);
    if (dirname(cur) === cur) break;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
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

export function openCcr(config: Config, logger: Logger): { ccr: CcrStore; store: CcrInfo } {
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

export function openStores(config: Config, logger: Logger): Stores {
  const { ccr, store } = openCcr(config, logger);
  const team = openTeam(config, logger);
  const originals = openTieredStore({ local: ccr, team, logger });
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
    close() {
      // originals.close() closes the local store at once; the team link's goodbye is not waited for.
      const closeOriginals = () =>
        void originals
          .close()
          .catch((err: unknown) => logger.warn(`closing a store failed: ${message(err)}`));
      for (const close of [() => chips.close(), closeOriginals]) {
        try {
          close();
        } catch (err) {
          logger.warn(`closing a store failed: ${message(err)}`);
        }
      }
    },
  };
}

export function openEditor(config: Config, journalDir: string): Editor {
  return createEditor({ roots: config.roots, journalDir });
}
