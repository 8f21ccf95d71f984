// Child process driven by the process tests (bundled to .mjs by test/setup/build-children.ts).
// Modes (argv[2]):
//   read <db> <file>                put nothing; print {handle, found, same} for the file's bytes
//   hammer <db> <id> <n>            n puts of this id's originals, each followed by gets; print handles
//   verify <db> <handles-file>      get every handle in the file; print how many resolved byte-exact
//   stream <db> <id>                put forever, printing each handle once its put has returned
// CCR_WORKER_DRIVER picks the SQLite driver (default: as a user's process would choose).
// Any failure prints {error, code} and exits 1, so the parent sees what surfaced to the caller.
import { readFileSync } from "node:fs";
import { computeHandle, isCcrStoreError } from "../../src/index.js";
import { openSqliteStore, type SqliteDriverName } from "../../src/sqlite.js";
import { driverOptions } from "../drivers.js";
import { originalFor } from "./originals.js";

const [mode, db, a, b] = process.argv.slice(2);
const out = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value)}\n`);
};

try {
  // The parent names the driver (CCR_WORKER_DRIVER), or the child picks as a user's process would.
  const driver = process.env.CCR_WORKER_DRIVER as SqliteDriverName | undefined;
  const store = openSqliteStore({ path: db!, ...(driver ? driverOptions(driver) : {}) });
  if (mode === "read") {
    const bytes = readFileSync(a!);
    const handle = computeHandle(bytes);
    const rec = store.get(handle);
    out({ handle, found: rec !== null, same: rec !== null && Buffer.compare(rec.original, bytes) === 0 });
  } else if (mode === "hammer") {
    const n = Number(b);
    const handles: string[] = [];
    let mismatches = 0;
    for (let i = 0; i < n; i++) {
      const bytes = originalFor(a!, i);
      const { handle } = store.put(bytes, { producer: `child-${a}` });
      handles.push(handle);
      // Read back the fresh one and an earlier one, so reads and writes of both processes interleave.
      for (const h of [handle, handles[(i * 7) % handles.length]!]) {
        const rec = store.get(h);
        if (rec === null || computeHandle(rec.original) !== h) mismatches++;
      }
    }
    out({ handles, mismatches });
  } else if (mode === "verify") {
    const handles = JSON.parse(readFileSync(a!, "utf8")) as string[];
    let ok = 0;
    for (const h of handles) {
      const rec = store.get(h);
      if (rec !== null && computeHandle(rec.original) === h) ok++;
    }
    out({ ok, total: handles.length });
  } else if (mode === "stream") {
    for (let i = 0; ; i++) {
      const { handle } = store.put(originalFor(a!, i));
      out({ handle, i });
    }
  } else {
    throw new Error(`unknown mode ${String(mode)}`);
  }
  store.close();
} catch (err) {
  out({ error: String(err), code: isCcrStoreError(err) ? err.code : null });
  process.exit(1);
}
