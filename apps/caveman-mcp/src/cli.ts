// Entry point of the caveman-mcp binary. Contract: parse and validate the whole configuration
// first — a bad setting prints one line on stderr and exits 2, before any store or stream is
// touched — then run exactly one command and exit with its code. Only the MCP transport writes
// to stdout while serving.
import { runChips, runStats } from "./commands/admin.js";
import { runDoctor } from "./commands/doctor.js";
import { runFlush } from "./commands/flush.js";
import { runHookCommand } from "./commands/hook.js";
import { runHostConfig } from "./commands/hostConfig.js";
import { runInstall, runPluginCommand, type SelfCommand } from "./commands/install.js";
import type { Io } from "./commands/io.js";
import { runProxy } from "./commands/proxy.js";
import { runUnconfigured, runWrapped } from "./commands/run.js";
import { runStatusLine } from "./commands/statusline.js";
import { runToolCommand } from "./commands/tools.js";
import { type Config, loadConfig } from "./config.js";
import { ConfigError } from "./errors.js";
import { HELP } from "./help.js";
import { serve } from "./serve.js";
import { VERSION } from "./version.js";

async function main(argv: string[]): Promise<number> {
  const io: Io = { stdout: process.stdout, stderr: process.stderr };
  process.stderr.on("error", () => {});
  let loaded: ReturnType<typeof loadConfig>;
  try {
    loaded = loadConfig({ argv });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`caveman-mcp: ${err.message}\n`);
      // A hook fails open: exit 2 would make the host show stderr to the model as a tool error.
      const first = argv.find((a) => !a.startsWith("-"));
      // A wrapped command runs, uncompressed, whatever the configuration says.
      if (first === "run") return runUnconfigured(argv, io);
      return first === "hook" ? 0 : 2;
    }
    throw err;
  }
  const { command, config } = loaded;
  return run(command, config, io);
}

async function run(
  command: ReturnType<typeof loadConfig>["command"],
  config: Config,
  io: Io,
): Promise<number> {
  switch (command.name) {
    case "help":
      io.stdout.write(HELP);
      return 0;
    case "version":
      io.stdout.write(`${VERSION}\n`);
      return 0;
    case "serve":
      return serve(config);
    case "compress":
    case "retrieve":
      return runToolCommand(command, config, io);
    case "stats":
      return runStats(command, config, io);
    case "statusline":
      return runStatusLine(config, io, process.stdin);
    case "chips":
      return runChips(command, config, io);
    case "doctor":
      return runDoctor(command, config, io);
    case "flush":
      return runFlush(command, config, io);
    case "hook":
      return runHookCommand(command, config, io, process.stdin);
    case "proxy":
      return runProxy(command, config);
    case "run":
      return runWrapped(command, config, io);
    case "install":
    case "uninstall":
      return runInstall(command, config, io, self());
    case "config":
      return runHostConfig(command, config, io);
    case "plugin":
      return runPluginCommand(command, config, io, self());
  }
}

/** How hosts should start this very binary: this node and this script, by absolute path. */
function self(): SelfCommand {
  return { command: process.execPath, args: process.argv[1] ? [process.argv[1]] : [] };
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Serving may leave handles (stdin) open; the command is done, so leave once stdout has taken
    // everything — or after a bound, since a client that stopped reading would never let it drain.
    setTimeout(() => process.exit(code), 500);
    process.stdout.write("", () => process.exit(code));
  },
  (err: unknown) => {
    if (err instanceof ConfigError) {
      process.stderr.write(`caveman-mcp: ${err.message}\n`);
      process.exit(2);
    }
    process.stderr.write(
      `caveman-mcp: error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
