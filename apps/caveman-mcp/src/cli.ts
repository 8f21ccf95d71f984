// Entry point of the caveman-mcp binary. Contract: parse and validate the whole configuration
// first — a bad setting prints one line on stderr and exits 2, before any store or stream is
// touched — then run exactly one command and exit with its code. Only the MCP transport writes
// to stdout while serving.
// Each command is its own chunk, loaded by `import()` when it runs: `--version`, `--help` and a hook
// that passes load this entry, the configuration and the hook's gate, never the engine, the
// tokenizer, SQLite or the server (tsup splits the bundle, tsup.config.ts).
import type { SelfCommand } from "./commands/install.js";
import type { Io } from "./commands/io.js";
import { enableCompileCache } from "./config/compileCache.js";
import { type Config, loadConfig } from "./config.js";
import { ConfigError } from "./errors.js";
import { HELP } from "./help.js";
import { VERSION } from "./version.js";

// Before any chunk loads, so that every one is compiled once and read back after (Node 22.1+).
enableCompileCache();

/** How long the exit waits for stdout to drain; a hook waits only what is left of its budget. */
let drainBoundMs = 500;

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
      if (first === "run") return (await import("./commands/run.js")).runUnconfigured(argv, io);
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
      return (await import("./serve.js")).serve(config);
    case "compress":
    case "retrieve":
      return (await import("./commands/tools.js")).runToolCommand(command, config, io);
    case "stats":
      return (await import("./commands/admin.js")).runStats(command, config, io);
    case "statusline":
      return (await import("./commands/statusline.js")).runStatusLine(config, io, process.stdin);
    case "chips":
      return (await import("./commands/admin.js")).runChips(command, config, io);
    case "doctor":
      return (await import("./commands/doctor.js")).runDoctor(command, config, io);
    case "flush":
      return (await import("./commands/flush.js")).runFlush(command, config, io);
    case "hook": {
      const hook = await import("./hookEntry.js");
      const code = await hook.runHookCommand(command, config, io, process.stdin);
      drainBoundMs = hook.hookDrainBoundMs(config.hooks.settings.budgetMs);
      return code;
    }
    case "proxy":
      return (await import("./commands/proxy.js")).runProxy(command, config);
    case "run":
      return (await import("./commands/run.js")).runWrapped(command, config, io);
    case "install":
    case "uninstall":
      return (await import("./commands/install.js")).runInstall(command, config, io, self());
    case "config":
      return (await import("./commands/hostConfig.js")).runHostConfig(command, config, io);
    case "plugin":
      return (await import("./commands/install.js")).runPluginCommand(command, config, io, self());
  }
}

/** How hosts should start this very binary: this node and this script, by absolute path. */
function self(): SelfCommand {
  return { command: process.execPath, args: process.argv[1] ? [process.argv[1]] : [] };
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Serving may leave handles (stdin) open; the command is done, so leave as soon as stdout has
    // taken everything — or at a bound, since a client that stopped reading would never let it
    // drain (a hook's bound is the rest of its budget, so its exit stays inside the budget).
    const bound = setTimeout(() => process.exit(code), drainBoundMs);
    process.stdout.write("", () => {
      clearTimeout(bound);
      process.exit(code);
    });
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
