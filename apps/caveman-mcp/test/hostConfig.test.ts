// `caveman-mcp config <host>` through the real binary: each snippet parses in its host's format
// (JSON, or TOML for Codex CLI) and has the structure that host reads, and the server command in
// it names the root the way that host needs.
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { describe, expect, it } from "vitest";
import { CLI, type Sandbox, sandbox } from "./helpers.js";

interface Server {
  type?: string;
  source?: string;
  command: string;
  args: string[];
}

function config(box: Sandbox, args: string[], cwd = box.root) {
  const { CAVEMAN_ROOTS: _, ...env } = box.env;
  return spawnSync(process.execPath, [CLI, "config", ...args], { env, cwd, encoding: "utf8" });
}

/** Where each host keeps its servers, and what it needs in one entry. */
const SHAPES: Record<
  string,
  { parse: (s: string) => unknown; entry: (doc: never) => Server; type?: string }
> = {
  "claude-code": {
    parse: JSON.parse,
    entry: (d: { mcpServers: { caveman: Server } }) => d.mcpServers.caveman,
    type: "stdio",
  },
  "claude-desktop": {
    parse: JSON.parse,
    entry: (d: { mcpServers: { caveman: Server } }) => d.mcpServers.caveman,
  },
  cursor: { parse: JSON.parse, entry: (d: { mcpServers: { caveman: Server } }) => d.mcpServers.caveman },
  vscode: {
    parse: JSON.parse,
    entry: (d: { servers: { caveman: Server } }) => d.servers.caveman,
    type: "stdio",
  },
  windsurf: { parse: JSON.parse, entry: (d: { mcpServers: { caveman: Server } }) => d.mcpServers.caveman },
  zed: {
    parse: JSON.parse,
    entry: (d: { context_servers: { caveman: Server } }) => d.context_servers.caveman,
  },
  codex: { parse: parseToml, entry: (d: { mcp_servers: { caveman: Server } }) => d.mcp_servers.caveman },
  gemini: { parse: JSON.parse, entry: (d: { mcpServers: { caveman: Server } }) => d.mcpServers.caveman },
};

describe("caveman-mcp config <host> (real process)", () => {
  it("lists every host when none is named", () => {
    const r = config(sandbox(), []);
    expect(r.status).toBe(0);
    expect(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(Object.keys(SHAPES));
  });

  for (const [host, shape] of Object.entries(SHAPES)) {
    it(`prints a ${host} snippet its host can read, pinning no root it was not given`, () => {
      const box = sandbox();
      const r = config(box, [host]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/merge this into /);
      const entry = shape.entry(shape.parse(r.stdout) as never);
      expect(entry.command).toBe("npx");
      expect(entry.args.slice(0, 2)).toEqual(["-y", "caveman-mcp"]);
      if (shape.type) expect(entry.type).toBe(shape.type);
      if (host === "zed") expect(entry.source).toBe("custom");
      const rootArgs = entry.args.slice(2);
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the variable VS Code expands.
      if (host === "vscode") expect(rootArgs).toEqual(["--root", "${workspaceFolder}"]);
      else expect(rootArgs).toEqual([]);
      if (host === "codex")
        expect(
          (shape.parse(r.stdout) as { mcp_servers: { caveman: { startup_timeout_sec: number } } }).mcp_servers
            .caveman.startup_timeout_sec,
        ).toBe(60);
    });
  }

  it("names an explicit root for every host, Claude Code and VS Code included", () => {
    const box = sandbox();
    const project = join(box.base, 'project with spaces "quoted"');
    mkdirSync(project);
    for (const [host, shape] of Object.entries(SHAPES)) {
      const r = config(box, [host, "--root", project]);
      expect(shape.entry(shape.parse(r.stdout) as never).args, host).toEqual([
        "-y",
        "caveman-mcp",
        "--root",
        project,
      ]);
    }
  });

  it("in the home directory pins no root, says how to, and names the closest host for a typo", () => {
    const box = sandbox();
    const home = box.env.HOME as string;
    mkdirSync(home, { recursive: true });
    const r = config(box, ["claude-desktop"], home);
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).mcpServers.caveman.args).toEqual(["-y", "caveman-mcp"]);
    expect(r.stderr).toMatch(/add --root DIR to pin one project/);
    const typo = config(box, ["cursr"]);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toContain('unknown host "cursr". Did you mean "cursor"?');
    const unknown = config(box, ["emacs"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown host "emacs"\. Hosts: claude-code, /);
  });
});
