// Minimal edits of a user's JSON (or JSONC) settings file. Contract: an edit replaces exactly one
// range of the text — the member or element it adds, replaces or removes, with its separator —
// and every other byte stays as it was: comments, key order, the indentation and line endings of
// every neighbour. (jsonc-parser's own `modify` re-formats the whole container an edit lands in,
// which re-indented users' entries; here it only supplies the syntax tree and the offsets.) A new
// entry copies the layout of the entry before it: on its own line with that line's indent, or
// inline after a comma when its neighbours share a line. A file that is not a JSON object is
// refused, never overwritten, and every edit is re-parsed before it is returned.
import { findNodeAtLocation, type Node, type ParseError, parse, parseTree } from "jsonc-parser";

export type SettingsFileCode = "settings_not_json" | "settings_not_list" | "settings_unreadable";

export class SettingsFileError extends Error {
  constructor(
    readonly code: SettingsFileCode,
    message: string,
  ) {
    super(message);
  }
}

const OPTIONS = { allowTrailingComma: true, disallowComments: false } as const;

/** The file's object, or SettingsFileError when it is not one. */
export function parseSettings(file: string, text: string): Record<string, unknown> {
  const errors: ParseError[] = [];
  const value = parse(text, errors, OPTIONS) as unknown;
  if (errors.length > 0 || value === null || typeof value !== "object" || Array.isArray(value))
    throw new SettingsFileError(
      "settings_not_json",
      `${file} is not a JSON object; fix it by hand first (nothing was changed)`,
    );
  return value as Record<string, unknown>;
}

/** The value at `path`, or undefined when any step is missing or not an object/array. */
export function valueAt(obj: unknown, path: readonly (string | number)[]): unknown {
  let cur = obj;
  for (const key of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return cur;
}

function root(file: string, text: string): Node {
  parseSettings(file, text);
  const errors: ParseError[] = [];
  const node = parseTree(text, errors, OPTIONS);
  if (!node) throw new SettingsFileError("settings_not_json", `${file} is not a JSON object`);
  return node;
}

const eolOf = (text: string) => (text.includes("\r\n") ? "\r\n" : "\n");
const unitOf = (text: string) => /\n([ \t]+)\S/.exec(text)?.[1] ?? "  ";

/** The whitespace before `offset` on its line, or null when something else precedes it there. */
function ownLineIndent(text: string, offset: number): string | null {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  const lead = text.slice(start, offset);
  return /^[ \t]*$/.test(lead) ? lead : null;
}

/** The indent of the line `offset` is on. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? "";
}

function render(value: unknown, indent: string, unit: string, eol: string): string {
  return JSON.stringify(value, null, unit)
    .split("\n")
    .join(eol + indent);
}

function splice(file: string, text: string, start: number, end: number, insert: string): string {
  const out = text.slice(0, start) + insert + text.slice(end);
  parseSettings(file, out);
  return out;
}

/** Text with `entry` (an element, or `"key": value`) added as the last child of `container`. */
function addChild(
  file: string,
  text: string,
  container: Node,
  key: string | undefined,
  value: unknown,
): string {
  const eol = eolOf(text);
  const unit = unitOf(text);
  const kids = container.children ?? [];
  const head = key === undefined ? "" : `${JSON.stringify(key)}: `;
  const last = kids.at(-1);
  if (last) {
    const indent = ownLineIndent(text, last.offset);
    const end = last.offset + last.length;
    if (indent === null) return splice(file, text, end, end, `, ${head}${JSON.stringify(value)}`);
    return splice(file, text, end, end, `,${eol}${indent}${head}${render(value, indent, unit, eol)}`);
  }
  const open = container.offset + 1;
  const close = container.offset + container.length - 1;
  const outer = lineIndent(text, container.offset);
  const inner = outer + unit;
  const body = `${eol}${inner}${head}${render(value, inner, unit, eol)}${eol}${outer}`;
  // Keep anything but whitespace (a comment) that sits inside the empty container.
  if (/^\s*$/.test(text.slice(open, close))) return splice(file, text, open, close, body);
  return splice(file, text, open, open, `${eol}${inner}${head}${render(value, inner, unit, eol)}`);
}

/** `text` with the value `node` holds replaced by `value`: inline where it shared a line, else in its line's indent. */
function replaceNode(file: string, text: string, node: Node, value: unknown): string {
  const at = node.parent?.type === "property" ? node.parent.offset : node.offset;
  const rendered =
    ownLineIndent(text, at) === null
      ? JSON.stringify(value)
      : render(value, lineIndent(text, at), unitOf(text), eolOf(text));
  return splice(file, text, node.offset, node.offset + node.length, rendered);
}

function nest(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((v, k) => ({ [k]: v }), value);
}

/** `text` with the object member at `path` set to `value`, creating missing objects on the way. */
export function setMember(file: string, text: string, path: readonly string[], value: unknown): string {
  const tree = root(file, text);
  const node = findNodeAtLocation(tree, [...path]);
  if (node) return replaceNode(file, text, node, value);
  for (let depth = path.length - 1; depth >= 0; depth--) {
    const parent = depth === 0 ? tree : findNodeAtLocation(tree, path.slice(0, depth));
    if (!parent) continue;
    if (parent.type !== "object")
      throw new SettingsFileError(
        "settings_not_list",
        `${file}: ${path.slice(0, depth).join(".")} is not an object; fix it by hand first`,
      );
    return addChild(file, text, parent, path[depth], nest(path.slice(depth + 1), value));
  }
  throw new SettingsFileError("settings_not_json", `${file} is not a JSON object`);
}

/** `text` with `value` appended to the list at `path` (created when missing). */
export function appendElement(file: string, text: string, path: readonly string[], value: unknown): string {
  const node = findNodeAtLocation(root(file, text), [...path]);
  if (!node) return setMember(file, text, path, [value]);
  if (node.type !== "array")
    throw new SettingsFileError(
      "settings_not_list",
      `${file}: ${path.join(".")} is not a list; fix it by hand first`,
    );
  return addChild(file, text, node, undefined, value);
}

/** `text` with element `index` of the list at `path` replaced by `value`. */
export function replaceElement(
  file: string,
  text: string,
  path: readonly string[],
  index: number,
  value: unknown,
): string {
  const node = findNodeAtLocation(root(file, text), [...path, index]);
  if (!node) throw new SettingsFileError("settings_not_list", `${file}: ${path.join(".")}[${index}] is gone`);
  return replaceNode(file, text, node, value);
}

/** `text` without the member or element at `path` (and the separator that went with it). */
export function removeAt(file: string, text: string, path: readonly (string | number)[]): string {
  const tree = root(file, text);
  const valueNode = findNodeAtLocation(tree, [...path]);
  if (!valueNode) return text;
  const child = valueNode.parent?.type === "property" ? valueNode.parent : valueNode;
  const container = child.parent;
  if (!container) return text;
  const kids = container.children ?? [];
  const i = kids.indexOf(child);
  const end = child.offset + child.length;
  if (i < kids.length - 1) return splice(file, text, child.offset, kids[i + 1]!.offset, "");
  if (i > 0) {
    const prev = kids[i - 1]!;
    return splice(file, text, prev.offset + prev.length, end, "");
  }
  // The only child: from the end of the open bracket's line (or the bracket) to its end.
  const indent = ownLineIndent(text, child.offset);
  const from = indent === null ? child.offset : text.lastIndexOf("\n", child.offset - 1);
  const lineStart = from > 0 && text[from - 1] === "\r" ? from - 1 : from;
  const comma = /^\s*,/.exec(text.slice(end))?.[0].length ?? 0;
  return splice(file, text, Math.max(lineStart, container.offset + 1), end + comma, "");
}
