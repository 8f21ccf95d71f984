// How the store's place is made safe: permissions, and refusal of symlinks, hard links, shared directories and relative paths.
import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../test/helpers.js";
import { prepareStoreLocation } from "./location.js";
import { openSqliteStore } from "./sqlite/store.js";

const mode = (p: string): string => (statSync(p).mode & 0o777).toString(8);

describe("prepareStoreLocation", () => {
  let cleanup: () => void = () => {};
  afterEach(() => cleanup());
  const fresh = (): string => {
    const t = tempDir();
    cleanup = t.cleanup;
    return t.dir;
  };

  it("creates missing directories 0700 and the database file 0600", () => {
    const dir = fresh();
    const path = join(dir, "a", ".caveman", "ccr.db");
    prepareStoreLocation(path);
    expect(mode(join(dir, "a", ".caveman"))).toBe("700");
    expect(mode(join(dir, "a"))).toBe("700");
    expect(mode(path)).toBe("600");
  });

  it("keeps the database and its WAL files 0600 once SQLite has written them", () => {
    const dir = fresh();
    const path = join(dir, "ccr.db");
    const store = openSqliteStore({ path });
    store.put("secret");
    for (const f of [path, `${path}-wal`, `${path}-shm`]) expect(mode(f), f).toBe("600");
    store.close();
  });

  it("tightens an existing database file that others can read", () => {
    const dir = fresh();
    const path = join(dir, "ccr.db");
    writeFileSync(path, "");
    chmodSync(path, 0o644);
    prepareStoreLocation(path);
    expect(mode(path)).toBe("600");
  });

  it("refuses a symlinked database path and leaves the target untouched", () => {
    const dir = fresh();
    const target = join(dir, "real.db");
    writeFileSync(target, "not ours");
    const link = join(dir, "ccr.db");
    symlinkSync(target, link);
    expect(() => prepareStoreLocation(link)).toThrow(expect.objectContaining({ code: "store_unsafe_path" }));
    expect(() => openSqliteStore({ path: link })).toThrow(/store_unsafe_path: .*symlink/);
    expect(readFileSync(target, "utf8")).toBe("not ours");
  });

  it("refuses a dangling symlink and a symlinked WAL file", () => {
    const dir = fresh();
    symlinkSync(join(dir, "nowhere"), join(dir, "a.db"));
    expect(() => prepareStoreLocation(join(dir, "a.db"))).toThrow(
      expect.objectContaining({ code: "store_unsafe_path" }),
    );
    expect(existsSync(join(dir, "nowhere"))).toBe(false);
    writeFileSync(join(dir, "elsewhere"), "");
    symlinkSync(join(dir, "elsewhere"), join(dir, "b.db-wal"));
    expect(() => prepareStoreLocation(join(dir, "b.db"))).toThrow(/b\.db-wal is a symlink/);
  });

  it("refuses a hard-linked database, which SQLite would give one WAL per name", () => {
    const dir = fresh();
    const path = join(dir, "ccr.db");
    const store = openSqliteStore({ path });
    const { handle } = store.put("reached by one name only");
    store.close();
    const before = readFileSync(path);
    linkSync(path, join(dir, "alias.db"));
    for (const p of [path, join(dir, "alias.db")]) {
      expect(() => openSqliteStore({ path: p })).toThrow(/store_unsafe_path: .*2 hard links/);
    }
    expect(readFileSync(path).equals(before)).toBe(true);
    rmSync(join(dir, "alias.db"));
    const reopened = openSqliteStore({ path });
    expect(reopened.has(handle)).toBe(true);
    reopened.close();
  });

  it("refuses a world-writable directory, sticky or not", () => {
    const dir = fresh();
    for (const m of [0o777, 0o1777]) {
      const shared = join(dir, `shared-${m}`);
      mkdirSync(shared);
      chmodSync(shared, m);
      expect(() => prepareStoreLocation(join(shared, "ccr.db"))).toThrow(
        /store_unsafe_path: .*writable by every user/,
      );
      expect(existsSync(join(shared, "ccr.db"))).toBe(false);
    }
  });

  it("refuses a path that is a directory, or under a file, and a relative path", () => {
    const dir = fresh();
    mkdirSync(join(dir, "ccr.db"));
    expect(() => prepareStoreLocation(join(dir, "ccr.db"))).toThrow(
      expect.objectContaining({ code: "store_unsafe_path" }),
    );
    writeFileSync(join(dir, "file"), "");
    expect(() => prepareStoreLocation(join(dir, "file", "ccr.db"))).toThrow(
      expect.objectContaining({ code: "store_open_failed" }),
    );
    expect(() => prepareStoreLocation("relative/ccr.db")).toThrow(
      expect.objectContaining({ code: "invalid_config" }),
    );
  });
});
