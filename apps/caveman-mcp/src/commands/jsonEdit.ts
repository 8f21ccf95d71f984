// Minimal edits of a user's JSON settings file. Contract: only the members and array elements we
// own are added, replaced or removed (jsonc-parser's edit model: comments, key order and the
// formatting of untouched parts stay byte for byte; the container an edit lands in is re-indented
// in the file's own indent and line ending). A file that is not a JSON object is refused, never
// overwritten.
import { applyEdits, type FormattingOptions, modify, type ParseError, parse } from "jsonc-parser";
import type { JsonOp } from "./hostFiles.js";

export class SettingsFileError extends Error {
  readonly code = "settings_unreadable";
}

function formatting(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";
  return {
    insertSpaces: !indent.startsWith("\t"),
    tabSize: indent.startsWith("\t") ? 1 : indent.length,
    eol: text.includes("\r\n") ? "\r\n" : "\n",
  };
}

function parseObject(file: string, text: string): Record<string, unknown> {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || value === null || typeof value !== "object" || Array.isArray(value))
    throw new SettingsFileError(`${file} is not a JSON object; fix it by hand first (nothing was changed)`);
  return value as Record<string, unknown>;
}

function at(obj: unknown, path: readonly string[]): unknown {
  let cur = obj;
  for (const key of path) {
    if (cur === null || typeof cur !== "object" || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function edit(text: string, path: (string | number)[], value: unknown, insert = false): string {
  const edits = modify(text, path, value, { formattingOptions: formatting(text), isArrayInsertion: insert });
  return applyEdits(text, edits);
}

/** `text` with our entries set; `text` itself when they already are. */
export function applyOps(file: string, text: string | null, ops: readonly JsonOp[]): string {
  let out = text ?? "{}\n";
  for (const op of ops) {
    const obj = parseObject(file, out);
    const current = at(obj, op.path);
    if (op.kind === "member") {
      if (JSON.stringify(current) === JSON.stringify(op.value)) continue;
      out = edit(out, op.path, op.value);
      continue;
    }
    if (current !== undefined && !Array.isArray(current))
      throw new SettingsFileError(`${file}: ${op.path.join(".")} is not a list; fix it by hand first`);
    const list = (current as unknown[] | undefined) ?? [];
    const mine = list.findIndex(op.isOurs);
    if (mine >= 0 && JSON.stringify(list[mine]) === JSON.stringify(op.value)) continue;
    if (current === undefined) out = edit(out, op.path, [op.value]);
    else if (mine >= 0) out = edit(out, [...op.path, mine], op.value);
    else out = edit(out, [...op.path, list.length], op.value, true);
  }
  return out;
}

/**
 * `text` without our entries. A list or object left empty is removed too when `original` (the
 * file before install, if known) did not have it, so an uninstall leaves no trace of ours.
 */
export function removeOps(
  file: string,
  text: string,
  ops: readonly JsonOp[],
  original: string | null,
): string {
  let out = text;
  const before = original === null ? {} : parseObject(file, original);
  for (const op of ops) {
    const obj = parseObject(file, out);
    const current = at(obj, op.path);
    if (op.kind === "member") {
      if (current !== undefined) out = edit(out, op.path, undefined);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--)
        if (op.isOurs(current[i])) out = edit(out, [...op.path, i], undefined);
    }
    // Walk up: drop containers we emptied that the original did not have.
    for (let depth = op.path.length - (op.kind === "member" ? 1 : 0); depth >= 1; depth--) {
      const path = op.path.slice(0, depth);
      const value = at(parseObject(file, out), path);
      const empty = Array.isArray(value)
        ? value.length === 0
        : value !== null && typeof value === "object" && Object.keys(value).length === 0;
      if (!empty || at(before, path) !== undefined) break;
      out = edit(out, path, undefined);
    }
  }
  return out;
}
