import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
// Every folder of src/: the wings (input/, doc/, plan/, disk/) as well as the files on top.
const sources = readdirSync(here, { recursive: true, encoding: "utf8" })
  .filter((n) => n.endsWith(".ts") && !n.endsWith(".test.ts"))
  .map((n) => ({ name: n, text: readFileSync(join(here, n), "utf8") }));

describe("library sources", () => {
  it("import no network or process modules, read no env, call no fetch, write nothing to stdout", () => {
    const banned =
      /from\s+"node:(net|http|https|http2|dgram|tls|child_process)"|\bfetch\(|process\.(env|cwd|stdout)|console\./;
    for (const s of sources)
      expect(`${s.name}: ${banned.exec(s.text)?.[0] ?? "clean"}`).toBe(`${s.name}: clean`);
  });

  it("open with a header comment and export through index.ts one name at a time", () => {
    for (const s of sources) expect(s.text.startsWith("//"), s.name).toBe(true);
    const index = sources.find((s) => s.name === "index.ts")!.text;
    expect(index).not.toMatch(/export \*/);
  });
});
