// Real child processes on one SQLite file: handles agree across processes, two writers do not
// lose or block each other, and SIGKILL in the middle of a stream of puts loses nothing that had
// returned. Children run test/children/worker.ts, bundled by test/setup/build-children.ts.
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { computeHandle } from "../src/index.js";
import { pragma } from "../src/sqlite/driver.js";
import { openSqliteStore as openAny, type SqliteStoreOptions } from "../src/sqlite.js";
import { originalFor } from "./children/originals.js";
import { driverOptions, rawConnection, testDrivers } from "./drivers.js";
import { CHILD_DIR, parseLines, runWorker as runAny, tempDir } from "./helpers.js";

// Real processes racing on one file: generous on a loaded machine, where spawning alone can take
// seconds; these tests check what survives, never how fast.
const HEAVY_MS = 180_000;

let dir: string;
let db: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  db = join(dir, "ccr.db");
});
afterEach(() => cleanup());

describe.each(testDrivers())("across processes, on %s", (driver) => {
  const openSqliteStore = (opts: SqliteStoreOptions) => openAny({ ...driverOptions(driver), ...opts });
  const runWorker = (args: string[]) => runAny(args, driver);

  it("a child computes the same handle and reads the bytes the parent wrote", async () => {
    const store = openSqliteStore({ path: db });
    const bytes = new Uint8Array(randomBytes(70_000));
    const { handle } = store.put(bytes);
    const file = join(dir, "original.bin");
    writeFileSync(file, bytes);
    const result = await runWorker(["read", db, file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.lines).toEqual([{ handle, found: true, same: true }]);
    // Nothing on stderr: node:sqlite's ExperimentalWarning (Node 22) is dropped, narrowly.
    expect(result.stderr).toBe("");
    expect(handle).toBe(computeHandle(bytes));
    store.close();
  });

  it(
    "two processes doing 500 puts and gets each at once lose nothing and never see SQLITE_BUSY",
    async () => {
      const [a, b] = await Promise.all([
        runWorker(["hammer", db, "A", "500"]),
        runWorker(["hammer", db, "B", "500"]),
      ]);
      for (const r of [a, b]) {
        expect(r.code, JSON.stringify(r.lines) + r.stderr).toBe(0);
        expect(r.lines).toHaveLength(1);
        expect(r.lines[0]).toMatchObject({ mismatches: 0 });
      }
      const handles = [a, b].flatMap((r) => (r.lines[0] as { handles: string[] }).handles);
      expect(handles).toHaveLength(1000);
      const unique = [...new Set(handles)];
      // Every tenth original is the same in both streams, so 50 of the 1000 puts were shared.
      expect(unique).toHaveLength(950);
      const list = join(dir, "handles.json");
      writeFileSync(list, JSON.stringify(unique));
      const verified = await Promise.all([runWorker(["verify", db, list]), runWorker(["verify", db, list])]);
      for (const v of verified) expect(v.lines, v.stderr).toEqual([{ ok: 950, total: 950 }]);
      const store = openSqliteStore({ path: db });
      // The counters kept by triggers agree with the rows after two processes raced on them.
      const check = rawConnection(driver, db);
      const truth = check
        .prepare("SELECT count(*) AS entries, sum(size) AS bytes, sum(hits) AS hits FROM caveman_ccr_entries")
        .get() as unknown as { entries: number; bytes: number; hits: number };
      check.close();
      expect(truth.entries).toBe(950);
      expect(truth.hits).toBeGreaterThanOrEqual(2000 + 2 * 950);
      expect(store.stats()).toMatchObject(truth);
      for (let i = 0; i < 500; i++) {
        for (const id of ["A", "B"]) {
          const want = originalFor(id, i);
          expect(Buffer.compare(store.get(computeHandle(want))!.original, want)).toBe(0);
        }
      }
      store.close();
    },
    HEAVY_MS,
  );

  it(
    "SIGKILL in the middle of a stream of puts leaves an intact database holding every returned put",
    async () => {
      for (const id of ["K1", "K2", "K3"]) {
        const reported = await streamThenKill(id, 200 + Math.floor(Math.random() * 400), driver);
        expect(reported.length).toBeGreaterThan(100);
        const check = rawConnection(driver, db);
        expect(pragma(check, "integrity_check")).toBe("ok");
        // Every record present is whole: its bytes match its hash (a put is all or nothing).
        const rows = check
          .prepare("SELECT sha256, original FROM caveman_ccr_entries")
          .all() as unknown as Array<{
          sha256: string;
          original: Uint8Array;
        }>;
        expect(rows.length).toBeGreaterThanOrEqual(reported.length);
        for (const r of rows) expect(createHash("sha256").update(r.original).digest("hex")).toBe(r.sha256);
        check.close();
        const store = openSqliteStore({ path: db });
        for (const { handle, i } of reported) {
          const rec = store.get(handle);
          expect(rec, `${id}#${i}`).not.toBeNull();
          expect(Buffer.compare(rec!.original, originalFor(id, i))).toBe(0);
        }
        store.close();
      }
    },
    HEAVY_MS,
  );
});

/** Start a streaming writer, SIGKILL it after `after` reported puts, return what it reported. */
function streamThenKill(
  id: string,
  after: number,
  driver: string,
): Promise<Array<{ handle: string; i: number }>> {
  const child = spawn(process.execPath, [join(CHILD_DIR, "worker.mjs"), "stream", db, id], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, CCR_WORKER_DRIVER: driver },
  });
  let out = "";
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString("utf8");
    if (!child.killed && out.split("\n").length > after) child.kill("SIGKILL");
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (_code, signal) => {
      if (signal !== "SIGKILL")
        reject(new Error(`stream child ended without SIGKILL: ${out.slice(-500)} ${stderr}`));
      else resolve(parseLines(out) as Array<{ handle: string; i: number }>);
    });
  });
}

// Where both drivers load (Node 22.13+ with a better-sqlite3 built for it; the CI Node matrix
// demands both), one file is shared by processes on different drivers at once.
const both = testDrivers().length === 2 ? [testDrivers() as [string, string]] : [];
describe.each(both)("across processes on different drivers (%s and %s)", (a, b) => {
  it(
    "two processes on different drivers hammer one file and lose nothing",
    async () => {
      const [ra, rb] = await Promise.all([
        runAny(["hammer", db, "A", "300"], a),
        runAny(["hammer", db, "B", "300"], b),
      ]);
      for (const r of [ra, rb]) {
        expect(r.code, JSON.stringify(r.lines) + r.stderr).toBe(0);
        expect(r.lines[0]).toMatchObject({ mismatches: 0 });
      }
      const unique = [...new Set([ra, rb].flatMap((r) => (r.lines[0] as { handles: string[] }).handles))];
      expect(unique).toHaveLength(570);
      const list = join(dir, "handles.json");
      writeFileSync(list, JSON.stringify(unique));
      const verified = await Promise.all([runAny(["verify", db, list], a), runAny(["verify", db, list], b)]);
      for (const v of verified) expect(v.lines, v.stderr).toEqual([{ ok: 570, total: 570 }]);
      expect(pragma(rawConnection(a as never, db), "integrity_check")).toBe("ok");
    },
    HEAVY_MS,
  );
});
