// The savings journal through the real binary: a compression is journaled without its content,
// `stats` shows it per kind (text and --json), `statusline` prints one line for Claude Code; and
// `doctor` keeps its samples out of the user's store and fails, with the fix, on a bad hooks.json
// and on a registered command whose file is gone.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Sandbox, sandbox } from "./helpers.js";
import { cli } from "./installHelpers.js";

// The self-contained bundle, as `npx caveman-mcp` runs it.
const run = (box: Sandbox, args: string[], input?: string) => cli(box, args, {}, box.root, input);

const LOG = `${Array.from({ length: 3000 }, (_, i) =>
  i === 1500
    ? "2026-01-01T00:25:00Z ERROR secret-payload charge failed"
    : `2026-01-01T00:00:00Z INFO request ${i} served`,
).join("\n")}\n`;

describe("savings", () => {
  it("journals a compression without its content; stats and the status line show it", () => {
    const box = sandbox();
    writeFileSync(join(box.base, "app.log"), LOG);
    expect(run(box, ["compress", join(box.base, "app.log")]).code).toBe(0);
    const journal = join(box.env.HOME!, ".caveman", "savings.jsonl");
    const text = readFileSync(journal, "utf8");
    expect(text.trim().split("\n")).toHaveLength(1);
    expect(text).not.toContain("secret-payload");
    expect(text).not.toContain("app.log");

    const stats = run(box, ["stats"]);
    expect(stats.code).toBe(0);
    expect(stats.stdout).toMatch(/retrieves netted out/);
    expect(stats.stdout).toMatch(/^ {2}today\s+1\s/m);
    expect(stats.stdout).toMatch(/saved per kind, all time:\n\s+log\s+█+\s+\S+/);
    const json = JSON.parse(run(box, ["stats", "--json"]).stdout);
    expect(json.savings.all).toMatchObject({ kept: 1, retrieves: 0 });
    expect(json.savings.all.kinds[0].kind).toBe("log");
    expect(json.savings.all.saved).toBe(json.savings.all.tokensIn - json.savings.all.tokensOut);

    const line = run(box, ["statusline"], '{"session_id": "not-this-one", "model": {}}');
    expect(line.code).toBe(0);
    expect(line.stdout).toMatch(/^caveman: nothing saved yet this session · \S+ today\n$/);
    expect(run(box, ["statusline"], "not json").stdout).toMatch(/^caveman: .* today\n$/);
  });
});

describe("doctor", () => {
  it("keeps its samples out of the user's store", () => {
    const box = sandbox();
    const r = run(box, ["doctor"]);
    expect(r.stdout).toMatch(/^ok {3}claude-code hook: .*byte-exact/m);
    expect(r.stdout).toMatch(/^ok {3}gemini hook: .*byte-exact/m);
    const stats = JSON.parse(run(box, ["stats", "--json"]).stdout);
    expect(stats.store.entries).toBe(0);
    expect(stats.savings.all.kept).toBe(0);
  });

  it("fails on an invalid hooks.json and on a registered command whose file is gone, with the fix", () => {
    const box = sandbox();
    const home = box.env.HOME!;
    mkdirSync(join(home, ".caveman"), { recursive: true });
    writeFileSync(join(home, ".caveman", "hooks.json"), '{"floor_tokens": "lots"}');
    mkdirSync(join(home, ".claude"), { recursive: true });
    const gone = join(box.base, "npx-cache", "_npx", "1234", "cli.mjs");
    writeFileSync(
      join(home, ".claude", "settings.json"),
      JSON.stringify({
        hooks: {
          PostToolUse: [
            {
              matcher: "Bash",
              hooks: [{ type: "command", command: `${process.execPath} ${gone} hook claude-code` }],
            },
          ],
        },
      }),
    );
    const r = run(box, ["doctor"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL hook settings: .*hooks\.json.*; fix: correct or remove .*hooks\.json/m);
    expect(r.stdout).toMatch(
      new RegExp(
        `^FAIL claude-code install: .*runs ${gone}, which no longer exists; fix: caveman-mcp install claude-code`,
        "m",
      ),
    );
    for (const line of r.stdout.split("\n").filter((l) => l.startsWith("FAIL")))
      expect(line).toMatch(/fix: /);
    expect(existsSync(gone)).toBe(false);
  });
});
