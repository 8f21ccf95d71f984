// Package boundaries, proved on the sources: no network/child_process/env/cwd/console in src/
// except the team store's connection modules (the client, its guarded sockets, the link), and the root entry's import graph never reaches
// the native better-sqlite3 nor the network code.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "..", "src");
const sources = (readdirSync(SRC, { recursive: true }) as string[])
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
  .map((f) => join(SRC, f));
const importsOf = (file: string): string[] =>
  [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]!);

describe("source boundaries", () => {
  it("imports no network or process-spawning module and calls no fetch, but in the team store's connection", () => {
    const banned =
      /^(node:)?(net|http|https|http2|dgram|tls|child_process)$|^(ioredis|iovalkey|redis|@redis\/client)$/;
    const allowed = ["client.ts", "connector.ts", "connection.ts"].map((f) => join("redis", f));
    expect(importsOf(join(SRC, "redis", "client.ts"))).toContain("ioredis");
    for (const file of sources) {
      if (allowed.includes(relative(SRC, file))) continue;
      expect(
        importsOf(file).filter((s) => banned.test(s)),
        relative(SRC, file),
      ).toEqual([]);
      expect(readFileSync(file, "utf8"), relative(SRC, file)).not.toMatch(/\bfetch\(/);
    }
  });

  it("reads no process.env, calls no process.cwd and writes nothing to the console", () => {
    for (const file of sources) {
      const text = readFileSync(file, "utf8");
      expect(text, relative(SRC, file)).not.toMatch(/process\.env|process\.cwd|console\./);
    }
  });

  it("keeps both SQLite libraries and the network code out of everything the root entry imports", () => {
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const spec of importsOf(file)) {
        expect(spec, `${relative(SRC, file)} imports ${spec}`).not.toBe("better-sqlite3");
        expect(spec, `${relative(SRC, file)} imports ${spec}`).not.toBe("ioredis");
        expect(resolve(dirname(file), spec), `${relative(SRC, file)} imports ${spec}`).not.toContain(
          join(SRC, "redis"),
        );
        expect(readFileSync(file, "utf8"), relative(SRC, file)).not.toMatch(/node:sqlite/);
        if (spec.startsWith(".")) visit(resolve(dirname(file), spec.replace(/\.js$/, ".ts")));
      }
    };
    visit(join(SRC, "index.ts"));
    expect(seen.size).toBeGreaterThan(5);
    expect(importsOf(join(SRC, "sqlite", "better-driver.ts"))).toContain("better-sqlite3");
  });

  it("never imports node:sqlite statically, so Node 20 can load every module", () => {
    for (const file of sources) {
      expect(importsOf(file), relative(SRC, file)).not.toContain("node:sqlite");
    }
    expect(readFileSync(join(SRC, "sqlite", "node-driver.ts"), "utf8")).toContain('"node:sqlite"');
  });

  it("lists public exports one by one", () => {
    for (const entry of ["index.ts", "sqlite.ts", "redis.ts"]) {
      expect(readFileSync(join(SRC, entry), "utf8")).not.toMatch(/export \*/);
    }
  });
});
