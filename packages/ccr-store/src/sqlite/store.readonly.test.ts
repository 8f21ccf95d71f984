// The SQLite store on files it cannot write, and on a database deleted or replaced under it.
import { execFileSync } from "node:child_process";
import { existsSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testDrivers } from "../../test/drivers.js";
import { fileHash } from "../../test/helpers.js";
import { dir, onDriver, path, rmIfThere, useTempDb } from "../../test/sqliteFiles.js";
import { computeHandle } from "../handle.js";

useTempDb();

describe.each(testDrivers())("openSqliteStore on %s", (driver) => {
  const { raw, openSqliteStore } = onDriver(driver);

  it("opens a database it cannot write read-only: gets are served, puts refused with store_read_only", () => {
    const seed = openSqliteStore({ path });
    const { handle } = seed.put("stored before the disk went read-only");
    seed.close();
    const before = fileHash(path);
    execFileSync("chattr", ["+i", path]);
    try {
      const store = openSqliteStore({ path });
      expect(store.stats()).toMatchObject({ writable: false, entries: 1 });
      expect(new TextDecoder().decode(store.get(handle)!.original)).toBe(
        "stored before the disk went read-only",
      );
      expect(() => store.put("new")).toThrow(expect.objectContaining({ code: "store_read_only" }));
      expect(store.has(computeHandle("new"))).toBe(false);
      store.close();
    } finally {
      execFileSync("chattr", ["-i", path]);
    }
    expect(fileHash(path)).toBe(before);
  });

  it("serves gets from a read-only directory with no -wal/-shm files, and refuses puts", () => {
    const seed = openSqliteStore({ path });
    const { handle } = seed.put("kept in a directory that became read-only");
    seed.close();
    execFileSync("chattr", ["+i", dir]);
    try {
      const store = openSqliteStore({ path });
      expect(store.get(handle)?.size).toBe(41);
      expect(() => store.put("refused")).toThrow(expect.objectContaining({ code: "store_read_only" }));
      store.close();
    } finally {
      execFileSync("chattr", ["-i", dir]);
    }
  });

  it("refuses a read-only file that holds no store yet with store_open_failed", () => {
    writeFileSync(path, "", { mode: 0o600 });
    execFileSync("chattr", ["+i", path]);
    try {
      expect(() => openSqliteStore({ path })).toThrow(
        /store_open_failed: .*read-only and holds no CCR store/,
      );
    } finally {
      execFileSync("chattr", ["-i", path]);
    }
  });

  it("reopens a database deleted under it, carries its originals over, and stores where others look", () => {
    const store = openSqliteStore({ path });
    const early = store.put("put before the file was deleted").handle;
    for (const suffix of ["", "-wal", "-shm"]) rmIfThere(path + suffix);
    const late = store.put("put after the file was deleted").handle;
    const other = openSqliteStore({ path: join(dir, ".", "ccr.db") });
    for (const h of [early, late]) expect(other.get(h), h).not.toBeNull();
    expect(other.stats().entries).toBe(2);
    other.close();
    store.close();
  });

  it("follows a database replaced under it, and keeps the replacement's originals", () => {
    const store = openSqliteStore({ path });
    const mine = store.put("mine").handle;
    const elsewhere = join(dir, "elsewhere.db");
    const theirs = openSqliteStore({ path: elsewhere });
    const theirHandle = theirs.put("theirs").handle;
    theirs.close();
    // Replaced as SQLite allows: the old file goes with its -wal/-shm (a -wal left beside another
    // database would be replayed into it, which no program can guard against).
    for (const suffix of ["", "-wal", "-shm"]) rmIfThere(path + suffix);
    renameSync(elsewhere, path);
    const late = store.put("after the swap").handle;
    store.close();
    const check = openSqliteStore({ path });
    for (const h of [mine, theirHandle, late]) expect(check.get(h), h).not.toBeNull();
    check.close();
  });

  it("releases the new file's connection when following a replaced database fails midway", () => {
    const store = openSqliteStore({ path, busyTimeoutMs: 50 });
    store.put("held by the first file");
    for (const suffix of ["", "-wal", "-shm"]) rmIfThere(path + suffix);
    // A valid database appears at the path, and another process holds its write lock, so the
    // store can open it but cannot carry its originals over.
    openSqliteStore({ path }).close();
    const writer = raw();
    writer.exec("BEGIN IMMEDIATE");
    expect(() => store.put("refused while the new file is locked")).toThrow(
      expect.objectContaining({ code: "store_vanished" }),
    );
    writer.exec("COMMIT");
    writer.close();
    store.close();
    // SQLite removes the -wal when the last connection to a file closes: one left behind would
    // be a connection this store opened and never gave back.
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it("refuses a put with store_vanished when a deleted database cannot be made again", () => {
    const store = openSqliteStore({ path });
    const kept = store.put("still held by the open connection").handle;
    for (const suffix of ["", "-wal", "-shm"]) rmIfThere(path + suffix);
    execFileSync("chattr", ["+i", dir]);
    try {
      expect(() => store.put("would be lost")).toThrow(expect.objectContaining({ code: "store_vanished" }));
      // The open connection still holds what was stored before; a miss stays a miss.
      expect(store.get(kept)).not.toBeNull();
      expect(store.get(computeHandle("would be lost"))).toBeNull();
    } finally {
      execFileSync("chattr", ["-i", dir]);
    }
    // Once the directory is usable again, the next put recreates the file with what was held.
    expect(store.put("would be lost").created).toBe(true);
    store.close();
    const check = openSqliteStore({ path });
    expect(check.get(kept)).not.toBeNull();
    check.close();
  });
});
