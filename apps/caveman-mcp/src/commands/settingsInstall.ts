// Install and uninstall through a host's settings files. Contract: only our entries change, found
// by value (installRecord.ts): install adds them or replaces the ones an earlier install wrote;
// uninstall removes exactly those and the containers install created, leaving every other byte as
// the user has it now — there is no "restore", so edits made since install are never lost.
// Before a file changes, its current bytes are copied to `<caveman home>/backups/` for recovery by
// hand (the last five per file); nothing ever restores them on its own. All files of one host
// change together or not at all (settingsFile.ts). `--dry-run` computes the same texts and prints
// their diffs instead.
import { createHash } from "node:crypto";
import { readdirSync, unlinkSync } from "node:fs";
import { basename, join } from "node:path";
import { createTwoFilesPatch } from "diff";
import type { FilePlan, JsonOp } from "./hostFiles.js";
import {
  canonical,
  entryOf,
  type InstallRecord,
  isOurs,
  type RecordEntry,
  readRecord,
  writeRecord,
} from "./installRecord.js";
import { appendElement, parseSettings, removeAt, replaceElement, setMember, valueAt } from "./jsonEdit.js";
import { commitAll, readTarget, type Target, writeOwn } from "./settingsFile.js";

export interface FileChange {
  target: Target;
  after: string | null;
  record: InstallRecord;
  /** What happened to each of our entries, for the report. */
  notes: string[];
}

function createdPrefixes(op: JsonOp, obj: unknown): string[][] {
  const out: string[][] = [];
  const upto = op.kind === "element" ? op.path.length : op.path.length - 1;
  for (let d = 1; d <= upto; d++)
    if (valueAt(obj, op.path.slice(0, d)) === undefined) out.push(op.path.slice(0, d));
  return out;
}

/** The text with our entries of `plan` in place, and the record that says so. */
export function planInstall(cavemanHome: string, plan: FilePlan, within?: string): FileChange {
  const target = readTarget(plan.file, within);
  const previous = readRecord(cavemanHome, plan.file);
  const record: InstallRecord = previous ?? { file: plan.file, entries: [], created: [] };
  const notes: string[] = [];
  if (target.text === null && previous === null) record.createdFile = true;
  let text = target.text ?? "{}\n";
  for (const op of plan.ops) {
    const obj = parseSettings(plan.file, text);
    const entry = record.entries.find((e) => e.kind === op.kind && e.path.join(".") === op.path.join("."));
    const mine = (v: unknown) => isOurs(entry, v) || (previous === null && op.legacy(v));
    for (const p of createdPrefixes(op, obj))
      if (!record.created.some((c) => c.join(".") === p.join("."))) record.created.push(p);
    const current = valueAt(obj, op.path);
    const want = canonical(op.value);
    if (op.kind === "member") {
      if (current !== undefined && canonical(current) !== want && !mine(current))
        throw new InstallConflict(
          `${plan.file}: ${op.path.join(".")} is not one an install wrote (it was changed or written by hand); rename or remove it, then install again (nothing was changed)`,
        );
      if (current === undefined || canonical(current) !== want)
        text = setMember(plan.file, text, op.path, op.value);
    } else {
      const list = Array.isArray(current) ? current : [];
      const ours = list.flatMap((v, i) => (canonical(v) === want || mine(v) ? [i] : []));
      if (ours.length === 1 && canonical(list[ours[0]!]) === want) {
        // Already as it should be.
      } else if (ours.length === 0) text = appendElement(plan.file, text, op.path, op.value);
      else {
        for (const i of ours.slice(1).reverse()) text = removeAt(plan.file, text, [...op.path, i]);
        text = replaceElement(plan.file, text, op.path, ours[0]!, op.value);
      }
    }
    const e = entryOf(record, op.kind, op.path);
    if (!e.values.includes(want)) e.values.push(want);
  }
  return { target, after: text === target.text ? target.text : text, record, notes };
}

/** The text without any entry an install wrote (by record, or by the legacy pattern without one). */
export function planUninstall(cavemanHome: string, plan: FilePlan, within?: string): FileChange {
  const target = readTarget(plan.file, within);
  const previous = readRecord(cavemanHome, plan.file);
  const record: InstallRecord = previous ?? { file: plan.file, entries: [], created: [] };
  const notes: string[] = [];
  if (target.text === null) return { target, after: null, record: { ...record, entries: [] }, notes };
  let text = target.text;
  for (const op of plan.ops) {
    const entry: RecordEntry | undefined = record.entries.find(
      (e) => e.kind === op.kind && e.path.join(".") === op.path.join("."),
    );
    const mine = (v: unknown) => isOurs(entry, v) || (previous === null && op.legacy(v));
    const current = valueAt(parseSettings(plan.file, text), op.path);
    if (op.kind === "member") {
      if (current === undefined) continue;
      if (mine(current)) text = removeAt(plan.file, text, op.path);
      else
        notes.push(`kept ${op.path.join(".")} in ${plan.file}: it changed since install, so it is yours now`);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--)
        if (mine(current[i])) text = removeAt(plan.file, text, [...op.path, i]);
    }
  }
  // Containers install created and that are empty now go too, deepest first.
  for (const path of [...record.created].sort((a, b) => b.length - a.length)) {
    const v = valueAt(parseSettings(plan.file, text), path);
    const empty = Array.isArray(v)
      ? v.length === 0
      : v !== null && typeof v === "object" && Object.keys(v).length === 0;
    if (empty) text = removeAt(plan.file, text, path);
  }
  const left = parseSettings(plan.file, text);
  const after = record.createdFile && Object.keys(left).length === 0 ? null : text;
  return { target, after, record: { ...record, entries: [], created: [] }, notes };
}

export class InstallConflict extends Error {
  readonly code = "install_conflict";
}

function backup(cavemanHome: string, t: Target, now: Date): string | undefined {
  if (t.text === null) return undefined;
  const dir = join(cavemanHome, "backups", createHash("sha256").update(t.file).digest("hex").slice(0, 16));
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const path = join(dir, `${stamp}-${basename(t.file)}`);
  writeOwn(path, t.text);
  try {
    const old = readdirSync(dir)
      .filter((n) => n.endsWith(basename(t.file)))
      .sort();
    for (const n of old.slice(0, Math.max(0, old.length - 5))) unlinkSync(join(dir, n));
  } catch {
    // Pruning is housekeeping.
  }
  return path;
}

/** Writes the changes that change something (all or none), keeps backups, then the records. */
export function commitChanges(cavemanHome: string, changes: FileChange[], now: Date): string[] {
  const real = changes.filter((c) => c.after !== c.target.text);
  const lines: string[] = [];
  const backups = real.map((c) => backup(cavemanHome, c.target, now));
  commitAll(real.map((c) => ({ target: c.target, after: c.after })));
  for (const c of changes) writeRecord(cavemanHome, c.record);
  for (const [i, c] of changes.entries()) {
    const k = real.indexOf(c);
    if (k < 0) lines.push(`unchanged ${c.target.file}`);
    else
      lines.push(
        `updated ${c.target.file}${backups[k] ? ` (its previous bytes: ${backups[k]})` : " (created)"}`,
      );
    lines.push(...changes[i]!.notes);
  }
  return lines;
}

export function diffOf(c: FileChange): string {
  return createTwoFilesPatch(
    c.target.text === null ? "/dev/null" : c.target.file,
    c.after === null ? "/dev/null" : c.target.file,
    c.target.text ?? "",
    c.after ?? "",
    undefined,
    undefined,
    { context: 3 },
  );
}
