// Opening the stores the config names. Contract: the CCR store falls back to memory when SQLite
// cannot open (and says why in `store.fallback`, which caveman_stats and doctor show); the chip
// store falls back to memory-only chips when its directory cannot be created. Nothing here exits.
import { join } from "node:path";
import { type CcrStore, openMemoryStore } from "@caveman/ccr-store";
import { openSqliteStore } from "@caveman/ccr-store/sqlite";
import { type ChipStore, openChipStore } from "@caveman/chip-store";
import { createEditor, type Editor } from "@caveman/edit-ops";
import type { Logger, StoreInfo } from "@caveman/mcp-server";
import type { Config } from "./config.js";

export interface Stores {
  ccr: CcrStore;
  store: StoreInfo;
  chips: ChipStore;
  chipsPersisted: boolean;
  close(): void;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function openCcr(config: Config, logger: Logger): { ccr: CcrStore; store: StoreInfo } {
  if (config.store.kind === "memory") return { ccr: openMemoryStore(), store: { backend: "memory" } };
  const path = config.store.path;
  try {
    return { ccr: openSqliteStore({ path }), store: { backend: "sqlite", path } };
  } catch (err) {
    const why = message(err);
    logger.warn(
      `CCR store at ${path} cannot open (${why}); originals are kept in memory for this process only`,
    );
    return { ccr: openMemoryStore(), store: { backend: "memory", path, fallback: why } };
  }
}

export function openChips(config: Config, logger: Logger): { chips: ChipStore; persisted: boolean } {
  const options = {
    dir: config.chipDir,
    capacity: config.chipMax,
    ...(config.chipTtlMs ? { ttlMs: config.chipTtlMs } : {}),
  };
  try {
    return { chips: openChipStore(options), persisted: true };
  } catch (err) {
    logger.warn(
      `chip directory ${config.chipDir} cannot be used (${message(err)}); chips are kept in memory only`,
    );
    return { chips: openChipStore({ ...options, persist: false }), persisted: false };
  }
}

export function openStores(config: Config, logger: Logger): Stores {
  const { ccr, store } = openCcr(config, logger);
  const { chips, persisted } = openChips(config, logger);
  return {
    ccr,
    store,
    chips,
    chipsPersisted: persisted,
    close() {
      for (const close of [() => chips.close(), () => ccr.close()]) {
        try {
          close();
        } catch (err) {
          logger.warn(`closing a store failed: ${message(err)}`);
        }
      }
    },
  };
}

/** The undo journal lives beside the chips (the chip store ignores names that are not chip files). */
export function journalDir(config: Config): string {
  return join(config.chipDir, "undo");
}

export function openEditor(config: Config): Editor {
  return createEditor({ roots: config.roots, journalDir: journalDir(config) });
}
