// Project-scope installs write files a team commits: only portable commands go in, and a hostile
// clone cannot use them to write anywhere else.
import { createHash } from "node:crypto";
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sandbox } from "./helpers.js";
import { cli, VERSION } from "./installHelpers.js";

/** Every path under `dir` with the hash of its bytes (or its link target). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out[p] = `-> ${readlinkSync(p)}`;
      else if (st.isDirectory()) walk(p);
      else out[p] = createHash("sha256").update(readFileSync(p)).digest("hex");
    }
  };
  walk(dir);
  return out;
}

describe("install --scope project", () => {
  it("writes only npx -y caveman-mcp@<version> commands, says so, and names no path of this machine", () => {
    const box = sandbox();
    const r = cli(box, ["install", "claude-code", "--scope", "project"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`\`npx -y caveman-mcp@${VERSION}\` only (no path of this machine)`);
    for (const f of [join(box.root, ".mcp.json"), join(box.root, ".claude", "settings.json")]) {
      const text = readFileSync(f, "utf8");
      expect(text).toContain(`caveman-mcp@${VERSION}`);
      expect(text).not.toContain(box.base);
      expect(text).not.toContain(process.execPath);
      expect(text).not.toMatch(/"\/(?!dev\/null)/);
    }
    expect(JSON.parse(readFileSync(join(box.root, ".mcp.json"), "utf8")).mcpServers.caveman).toEqual({
      type: "stdio",
      command: "npx",
      args: ["-y", `caveman-mcp@${VERSION}`, "--tools", "retrieve"],
    });
    expect(cli(box, ["uninstall", "claude-code", "--scope", "project"]).code).toBe(0);
    expect(readdirSync(box.root).filter((n) => n !== ".claude")).toEqual([]);
  });

  it("a planted link at every target and temp name changes nothing outside the project and fails cleanly", () => {
    const plants: Array<[string, (box: ReturnType<typeof sandbox>, outside: string) => void]> = [
      [".claude -> outside dir", (b, o) => symlinkSync(o, join(b.root, ".claude"))],
      [
        ".claude/settings.json -> ~/.bashrc",
        (b) => {
          mkdirSync(join(b.root, ".claude"));
          symlinkSync(join(b.env.HOME!, ".bashrc"), join(b.root, ".claude", "settings.json"));
        },
      ],
      [".mcp.json -> outside JSON", (b, o) => symlinkSync(join(o, "victim.json"), join(b.root, ".mcp.json"))],
      [
        ".gemini/settings.json -> outside JSON",
        (b, o) => {
          mkdirSync(join(b.root, ".gemini"));
          symlinkSync(join(o, "victim.json"), join(b.root, ".gemini", "settings.json"));
        },
      ],
    ];
    for (const [name, plant] of plants) {
      const box = sandbox();
      const outside = join(box.base, "outside");
      mkdirSync(outside);
      writeFileSync(join(outside, "victim.json"), '{"mine": true}\n');
      mkdirSync(box.env.HOME!, { recursive: true });
      writeFileSync(join(box.env.HOME!, ".bashrc"), "export PS1='$ '\n");
      plant(box, outside);
      // Old, predictable temp names: links there must not be followed either.
      for (const dir of [box.root, join(box.root, ".claude")]) {
        try {
          if (lstatSync(dir).isSymbolicLink()) continue;
          for (const base of ["settings.json", ".mcp.json"])
            symlinkSync(join(outside, "victim.json"), join(dir, `.${base}.caveman-${process.pid}.tmp`));
        } catch {
          // The planted .claude link is in the way: fine.
        }
      }
      const before = { out: snapshot(outside), home: snapshot(box.env.HOME!) };
      const host = name.startsWith(".gemini") ? "gemini" : "claude-code";
      const r = cli(box, ["install", host, "--scope", "project"]);
      expect(r.code, `${name}: ${r.stdout}`).toBe(1);
      expect(r.stderr, name).toMatch(/^caveman-mcp: settings_unreadable: .*(symlink|leads outside)/);
      expect(snapshot(outside), name).toEqual(before.out);
      expect(snapshot(box.env.HOME!), name).toEqual(before.home);
    }
  });
});
