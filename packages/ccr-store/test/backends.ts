// The backends under test, for the contract suites that must hold for all alike: memory, and the
// SQLite backend on each driver that test/drivers.ts selects.
import { join } from "node:path";
import { afterEach } from "vitest";
import { openMemoryStore } from "../src/memory.js";
import { openSqliteStore } from "../src/sqlite/store.js";
import type { CcrStore, StorePolicyOptions } from "../src/types.js";
import { driverOptions, testDrivers } from "./drivers.js";
import { tempDir } from "./helpers.js";

export const DAY = 24 * 60 * 60 * 1000;

export type OpenStore = (opts?: StorePolicyOptions) => CcrStore;

/** Every backend, each store closed (and its temp dir removed) after every test of the caller. */
export function useBackends(): Array<[string, OpenStore]> {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });
  const track = (store: CcrStore): CcrStore => {
    cleanups.unshift(() => store.close());
    return store;
  };
  return [
    ["memory", (opts) => track(openMemoryStore(opts))],
    ...testDrivers().map((driver): [string, OpenStore] => [
      `sqlite (${driver})`,
      (opts) => {
        const { dir, cleanup } = tempDir();
        cleanups.push(cleanup);
        return track(openSqliteStore({ path: join(dir, "ccr.db"), ...driverOptions(driver), ...opts }));
      },
    ]),
  ];
}

export function bytesOf(n: number, fill: (i: number) => number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = fill(i);
  return out;
}
