import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseArgs } from "../args.js";
import { HELP } from "../help.js";
import { helpEnvironment, helpOptions, SETTINGS, settingsMarkdown } from "./settings.js";

const repo = (path: string) => fileURLToPath(new URL(`../../../../${path}`, import.meta.url));

/** The table in `file` that starts with the settings header, as written. */
function docTable(file: string): string {
  const lines = readFileSync(repo(file), "utf8").split("\n");
  const start = lines.findIndex((l) => /^\| setting +\| flag +\| env +\| default +\|$/.test(l));
  if (start < 0) return `(no settings table in ${file})`;
  const end = lines.findIndex((l, i) => i > start && !l.startsWith("|"));
  return lines.slice(start, end < 0 ? undefined : end).join("\n");
}

describe("the settings table", () => {
  it.each(["apps/caveman-mcp/README.md", "docs/decisions/configuration.md"])(
    "is the configuration table of %s, row for row",
    (file) => {
      expect(docTable(file), `paste settingsMarkdown() into ${file}`).toBe(settingsMarkdown());
    },
  );

  it("is what the README's quoted --help lists under Options and Environment only", () => {
    const rows = `${helpOptions()}\n\nEnvironment only:\n${helpEnvironment()}\n`;
    expect(HELP).toContain(rows);
    expect(readFileSync(repo("apps/caveman-mcp/README.md"), "utf8")).toContain(rows);
  });

  it("gives every setting a variable and a help line that --help prints", () => {
    for (const s of SETTINGS) {
      expect(HELP).toContain("helpEnv" in s ? s.helpEnv : s.env);
      for (const line of s.help) expect(HELP).toContain(line);
    }
  });

  it("makes every flag of the table an option argv accepts", () => {
    for (const s of SETTINGS) {
      if (!("flag" in s)) continue;
      const argv = "arg" in s ? [`${s.flag}=x`] : [s.flag];
      expect(() => parseArgs(argv), s.flag).not.toThrow();
    }
  });
});
