// Builds dist/: the Claude Code marketplace of this caveman-mcp build, laid out by the binary
// itself (`caveman-mcp plugin dist`, run through the npm launcher so the server copied is the
// platform package's self-contained bundle). The layout is apps/caveman-mcp/src/plugin/layout.ts.
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const launcher = join(here, "..", "..", "npm", "caveman-mcp", "dist", "cli.js");
const r = spawnSync(process.execPath, [launcher, "plugin", join(here, "dist")], {
  cwd: here,
  encoding: "utf8",
  stdio: ["ignore", "inherit", "inherit"],
});
if (r.status !== 0) {
  process.stderr.write(
    `claude-plugin: caveman-mcp plugin failed (exit ${r.status}); build the launcher first\n`,
  );
  process.exit(1);
}
