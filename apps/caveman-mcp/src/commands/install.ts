// `install <host>` / `uninstall <host>`: register the hook and the MCP server in a host's settings.
// Contract: idempotent (a second install changes nothing); `--dry-run` prints the unified diff of
// every file and writes nothing; the user's other settings keep their bytes (see jsonEdit.ts);
// before the first change to a file its exact bytes are kept under `<caveman home>/backups/`,
// and a file is replaced atomically (temp file in the same directory, fsync, rename, mode kept).
// Uninstall restores that backup byte for byte when the file is still exactly as install left it,
// and otherwise removes only our entries. Hosts without hooks get the proxy line, nothing written.
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { createTwoFilesPatch } from "diff";
import type { Command } from "../args.js";
import type { Config } from "../config.js";
import { ensureDir } from "../stores.js";
import { type FilePlan, planFor, proxyAdvice, type SelfCommand } from "./hostFiles.js";
import { type Io, writeOut } from "./io.js";
import { applyOps, removeOps, SettingsFileError } from "./jsonEdit.js";

interface Manifest {
  path: string;
  existed: boolean;
  /** sha256 of the file as install last wrote it. */
  installed_sha256: string;
}

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

function backupDir(config: Config, file: string): string {
  return join(config.hooks.cavemanHome, "backups", sha(file).slice(0, 16));
}

function readMaybe(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

function readManifest(dir: string): Manifest | null {
  try {
    return JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as Manifest;
  } catch {
    return null;
  }
}

/**
 * Temp file beside the target, fsync, rename: the file is either the old or the new one. A
 * symlinked settings file (dotfile managers do that) is written through, so the link survives.
 */
function writeAtomic(link: string, text: string, mode?: number): void {
  let file = link;
  try {
    file = realpathSync(link);
  } catch {
    // Not there yet: created as a plain file.
  }
  ensureDir(dirname(file));
  const tmp = join(dirname(file), `.${basename(file)}.caveman-${process.pid}.tmp`);
  const fd = openSync(tmp, "w", mode ?? 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, file);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // Nothing to clean.
    }
    throw err;
  }
}

function modeOf(file: string): number | undefined {
  try {
    return statSync(file).mode & 0o7777;
  } catch {
    return undefined;
  }
}

function diffOf(file: string, before: string | null, after: string | null): string {
  return createTwoFilesPatch(
    before === null ? "/dev/null" : file,
    after === null ? "/dev/null" : file,
    before ?? "",
    after ?? "",
    undefined,
    undefined,
    { context: 3 },
  );
}

interface Change {
  file: string;
  before: string | null;
  after: string | null;
  backup?: string;
}

function planInstall(plan: FilePlan): Change {
  const before = readMaybe(plan.file);
  return { file: plan.file, before, after: applyOps(plan.file, before, plan.ops) };
}

function commitInstall(config: Config, change: Change): void {
  const dir = backupDir(config, change.file);
  const previous = readManifest(dir);
  ensureDir(dir);
  if (!previous) {
    // The first install keeps the true pre-install bytes; later ones never overwrite them.
    if (change.before !== null) writeAtomic(join(dir, "original"), change.before);
  }
  writeAtomic(change.file, change.after ?? "", modeOf(change.file));
  const manifest: Manifest = {
    path: change.file,
    existed: previous ? previous.existed : change.before !== null,
    installed_sha256: sha(change.after ?? ""),
  };
  writeAtomic(join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  change.backup = dir;
}

function planUninstall(config: Config, plan: FilePlan): Change & { restore: boolean } {
  const before = readMaybe(plan.file);
  const dir = backupDir(config, plan.file);
  const manifest = readManifest(dir);
  const original = manifest?.existed ? readMaybe(join(dir, "original")) : null;
  if (before === null) return { file: plan.file, before, after: null, restore: false };
  if (manifest && sha(before) === manifest.installed_sha256 && (original !== null || !manifest.existed)) {
    return { file: plan.file, before, after: original, restore: true, backup: dir };
  }
  return {
    file: plan.file,
    before,
    after: removeOps(plan.file, before, plan.ops, original),
    restore: false,
    backup: dir,
  };
}

function commitUninstall(change: Change & { restore: boolean }): void {
  if (change.after === null) {
    if (change.before !== null) unlinkSync(change.file);
  } else if (change.after !== change.before) {
    writeAtomic(change.file, change.after, modeOf(change.file));
  }
  if (change.backup && existsSync(change.backup)) rmSync(change.backup, { recursive: true, force: true });
}

export async function runInstall(
  command: Extract<Command, { name: "install" | "uninstall" }>,
  config: Config,
  io: Io,
  self: SelfCommand,
): Promise<number> {
  const who = command.command
    ? { command: command.command.split(/\s+/)[0]!, args: command.command.split(/\s+/).slice(1) }
    : self;
  const plan = planFor(command.host, command.scope, config.hooks, who);
  if (!plan) {
    if (command.name === "uninstall") {
      await writeOut(
        io,
        `${command.host}: nothing was installed (hosts without hooks only get the proxy line)\n`,
      );
      return 0;
    }
    await writeOut(io, proxyAdvice(command.host, who));
    return 0;
  }
  let changes: Array<Change & { restore?: boolean }>;
  try {
    changes = plan.files.map((f) => (command.name === "install" ? planInstall(f) : planUninstall(config, f)));
  } catch (err) {
    if (err instanceof SettingsFileError) {
      io.stderr.write(`caveman-mcp: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  const lines: string[] = [];
  for (const c of changes) {
    if (c.after === c.before) {
      lines.push(`unchanged ${c.file}`);
      continue;
    }
    if (command.dryRun) {
      lines.push(`would change ${c.file}:`, diffOf(c.file, c.before, c.after));
      continue;
    }
    if (command.name === "install") {
      commitInstall(config, c);
      lines.push(`updated ${c.file} (backup of the previous state in ${c.backup})`);
    } else {
      commitUninstall(c as Change & { restore: boolean });
      lines.push(
        c.after === null
          ? `removed ${c.file} (it did not exist before install)`
          : (c as { restore: boolean }).restore
            ? `restored ${c.file} to its state before install`
            : `removed our entries from ${c.file} (it changed since install, so the rest stays)`,
      );
    }
  }
  if (command.name === "install" && !command.dryRun) lines.push("", ...plan.notes);
  await writeOut(io, `${lines.join("\n")}\n`);
  return 0;
}

/** For `doctor`: whether this host's entries are installed (user or project scope), per file. */
export function installState(
  config: Config,
  host: "claude-code" | "gemini",
  self: SelfCommand,
): Array<{ file: string; installed: boolean }> {
  const out: Array<{ file: string; installed: boolean }> = [];
  for (const scope of ["user", "project"] as const) {
    const plan = planFor(host, scope, config.hooks, self);
    for (const f of plan?.files ?? []) {
      let text: string | null = null;
      try {
        text = readMaybe(f.file);
      } catch {
        text = null;
      }
      if (text === null) continue;
      try {
        // Installed = re-applying our entries would change nothing.
        out.push({ file: f.file, installed: applyOps(f.file, text, f.ops) === text });
      } catch {
        out.push({ file: f.file, installed: false });
      }
    }
  }
  return out;
}
