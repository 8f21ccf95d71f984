// The source condition holds only if every workspace library lists it, first, for every subpath,
// next to a dist/ target: a new package or subpath without it would be tested against a stale
// build again, and one that also drops dist/ would break consumers and the packed tarballs.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SOURCE_CONDITION } from "./index.js";

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const libraries = readdirSync(join(root, "packages")).map((name) => join(root, "packages", name));

describe("workspace exports", () => {
  it("finds the libraries", () => {
    expect(libraries.length).toBeGreaterThan(0);
  });

  for (const dir of libraries) {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    it(`${pkg.name}: every subpath resolves ${SOURCE_CONDITION} to its source first, else to dist/`, () => {
      for (const [subpath, target] of Object.entries(pkg.exports)) {
        expect(typeof target, subpath).toBe("object");
        const conditions = Object.keys(target);
        expect(conditions[0], subpath).toBe(SOURCE_CONDITION);
        const source = target[SOURCE_CONDITION];
        expect(source, subpath).toMatch(/^\.\/src\/.+\.ts$/);
        expect(existsSync(join(dir, source)), `${subpath} -> ${source}`).toBe(true);
        expect(target.types, subpath).toMatch(/^\.\/dist\/.+\.d\.ts$/);
        expect(target.import, subpath).toMatch(/^\.\/dist\/.+\.js$/);
      }
    });
    // src/ is not in `files`: a published manifest keeping the condition would name files the
    // tarball lacks, so a public library publishes the same exports without it.
    if (!pkg.private)
      it(`${pkg.name}: publishes its exports without ${SOURCE_CONDITION}`, () => {
        const published = Object.fromEntries(
          Object.entries(pkg.exports).map(([subpath, target]) => [
            subpath,
            Object.fromEntries(Object.entries(target).filter(([c]) => c !== SOURCE_CONDITION)),
          ]),
        );
        expect(pkg.publishConfig?.exports).toEqual(published);
      });
  }
});
