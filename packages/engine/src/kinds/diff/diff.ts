// Diffs in every form git and diff(1) print: unified (`git diff`, `git show`, `diff -u`, `-U0`),
// `--word-diff`, combined (`diff --cc`, `@@@` hunks with one column per parent) and diff's normal
// format (`12c12`, `<`, `---`, `>`). Kept: every file line (`diff --git ...`), commit headers
// and subjects, every change that is not a repeat, and short context runs. Folded, each run into
// one marker:
//   - a commit message past its subject and the 2 lines after it;
//   - a change block repeating a change shown already (same edit after masking digits and the
//     text both sides share: `limit: 122` -> `limit: 219, signal` and `limit: 136` -> `limit: 121,
//     signal` are one change), and a hunk holding nothing else, header included;
//   - unchanged context runs over two lines;
//   - `index`, `---` and `+++` lines under a `diff` line that already names the file;
//   - bodies of lock, generated and vendored files, as `+added -removed`;
//   - the middle of a big change block (a new file, a rewritten function): its first lines and
//     its last stay (of each side, removed and added, when it has both), the rest is counted as
//     added and removed lines.
// A repeat names the first line of the change it repeats, a kept line outside any region marker
// (renderKept's anchors), so the model can find it: `same change as line 9`.
// A line is context only when every parent column is blank: in a combined diff ` +` is a change.
// The marker facts of each folded run are built in diffFacts.ts.

import { REGION_GAP, renderKept } from "../../lines.js";
import type { Candidate, KindContext, PassReason } from "../../types.js";
import { tick } from "../../work.js";
import { diffFacts } from "./facts.js";
import { compressStat, isStatListing } from "./stat.js";

const GENERATED =
  /(^|\/)(pnpm-lock\.yaml|package-lock\.json|yarn\.lock|npm-shrinkwrap\.json|Cargo\.lock|poetry\.lock|Pipfile\.lock|composer\.lock|Gemfile\.lock|go\.sum|bun\.lockb?)$|\.min\.(js|css)$|\.map$|(^|\/)(dist|vendor|node_modules)\/|\.snap$|\.generated\.\w+$/;
const CONTEXT_KEEP = 2;
/**
 * A change block longer than this keeps its first BIG_BLOCK_HEAD lines and its last; one that
 * removes and adds keeps the first SIDE_HEAD lines and the last of each side instead, so what
 * came in is in view beside what went.
 */
const BIG_BLOCK = 24;
const BIG_BLOCK_HEAD = 12;
const SIDE_HEAD = 6;
const COMMIT_LINE = /^commit [0-9a-f]{7,40}\b/;
/** Lines of a commit message kept after its subject. */
const MESSAGE_KEEP = 2;
/** A repeated change is shown this many times; later repeats fold, naming the first. */
const REPEAT_SHOWN = 1;
const FILE_LINE = /^(diff --git |diff --cc |diff --combined |diff -\S* |Only in |Binary files )/;
const META_LINE =
  /^(index |--- |\+\+\+ |new file mode|deleted file mode|old mode|new mode|similarity index|rename from|rename to|copy from|copy to)/;
const NORMAL_CMD = /^\d+(,\d+)?[acd]\d+(,\d+)?$/;
const WORD_CHANGE = /\[-.*?-\]|\{\+.*?\+\}/g;

type Role = "file" | "meta" | "hunk" | "ctx" | "del" | "add" | "other";

interface Parsed {
  role: Role[];
  /** File index of each line (-1 before the first file line). */
  file: Int32Array;
  names: string[];
}

function parse(lines: readonly string[]): Parsed {
  const role: Role[] = new Array(lines.length).fill("other");
  const file = new Int32Array(lines.length).fill(-1);
  const names: string[] = [];
  let cols = 0; // parent columns of the current hunk; 0 = not in a hunk; -1 = normal format
  let named = false; // the current file line names the file, so ---/+++ repeat it
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    file[i] = names.length - 1;
    if (FILE_LINE.test(line)) {
      role[i] = "file";
      const m = / b\/(.+)$/.exec(line) ?? /^diff --(?:cc|combined) (.+)$/.exec(line) ?? / (\S+)$/.exec(line);
      names.push(m?.[1] ?? line);
      file[i] = names.length - 1;
      named = line.startsWith("diff ");
      cols = 0;
      continue;
    }
    const at = /^(@@+) -/.exec(line);
    if (at) {
      role[i] = "hunk";
      cols = at[1]!.length - 1;
      continue;
    }
    if (NORMAL_CMD.test(line)) {
      role[i] = "hunk";
      cols = -1;
      continue;
    }
    if (cols === 0) {
      if (named && META_LINE.test(line)) role[i] = "meta";
      continue;
    }
    if (cols < 0) {
      // Normal format: `< ` old, `> ` new, `---` between them; anything else ends the change.
      if (line.startsWith("< ")) role[i] = "del";
      else if (line.startsWith("> ")) role[i] = "add";
      else if (line !== "---") cols = 0;
      continue;
    }
    const head = line.slice(0, cols);
    if (line === "" || /^ +$/.test(head)) {
      // --word-diff writes changed words inline on a context-prefixed line.
      role[i] = line.includes("[-") || line.includes("{+") ? "add" : "ctx";
    } else if (head.includes("-")) role[i] = "del";
    else if (head.includes("+")) role[i] = "add";
    else if (line.startsWith("\\")) role[i] = "other";
    else {
      // Anything else ends the hunk (a commit header of the next commit in `git log -p`).
      cols = 0;
      role[i] = "other";
    }
  }
  return { role, file, names };
}

/** Start of the word or number `i` sits in (so a cut never splits `122` into `1` and `22`). */
function wordStart(s: string, i: number): number {
  while (i > 0 && /\w/.test(s[i - 1]!)) i--;
  return i;
}

const maskDigits = (t: string) => t.replace(/\d+/g, "#");

/** What changed between two lines: the differing middle, digits masked. */
function pairSignature(a: string, b: string): string {
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  p = Math.min(wordStart(a, p), wordStart(b, p));
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  while (s > 0 && /\w/.test(a[a.length - s] ?? "")) s--;
  return `${maskDigits(a.slice(p, a.length - s))}\u0000${maskDigits(b.slice(p, b.length - s))}`;
}

/** Signature of a change block (del lines then add lines, parent columns stripped). */
function blockSignature(
  lines: readonly string[],
  role: Role[],
  from: number,
  to: number,
  cols: number,
): string {
  const dels: string[] = [];
  const adds: string[] = [];
  for (let i = from; i <= to; i++) {
    const body = lines[i]!.slice(cols);
    if (role[i] === "del") dels.push(body);
    else if (role[i] === "add") adds.push(body);
  }
  if (dels.length === 0 && adds.length > 0 && adds.every((l) => l.includes("[-") || l.includes("{+")))
    return adds.map((l) => (l.match(WORD_CHANGE) ?? []).join(" ").replace(/\d+/g, "#")).join("\n");
  if (dels.length === adds.length) return dels.map((d, k) => pairSignature(d, adds[k]!)).join("\n");
  // A combined diff's resolution: each parent's removed lines in turn, then the merged lines;
  // line k of every parent pairs with merged line k, so the same resolution repeated is one change.
  if (cols >= 2 && adds.length > 0 && dels.length % adds.length === 0)
    return dels.map((d, k) => pairSignature(d, adds[k % adds.length]!)).join("\n");
  return [...dels.map((l) => `-${maskDigits(l)}`), ...adds.map((l) => `+${maskDigits(l)}`)].join("\n");
}

/** Compresses a diff, or says why it cannot. */
export function compressDiff(text: string, ctx: KindContext): Candidate | PassReason {
  const lines = text.split("\n");
  // A diffstat listing (`git log --stat`) holds no hunks: its own compressor folds file lines.
  if (isStatListing(lines)) return compressStat(text, ctx);
  const { role, file, names } = parse(lines);
  const n = lines.length;
  const keep = new Uint8Array(n).fill(1);
  // why[i]: what a dropped line was, for the marker facts.
  const why: string[] = new Array(n).fill("");

  // Change blocks, their signatures and the first line of the block each one repeats.
  const blocks: Array<{ from: number; to: number; sig: string; hunk: number }> = [];
  let hunk = -1;
  let cols = 1;
  let normal = false;
  for (let i = 0; i < n; i++) {
    if (role[i] === "hunk") {
      hunk = i;
      const at = /^(@@+)/.exec(lines[i]!);
      normal = !at;
      cols = at ? at[1]!.length - 1 : 2;
    }
    if (role[i] !== "del" && role[i] !== "add") continue;
    let j = i;
    while (
      j + 1 < n &&
      (role[j + 1] === "del" || role[j + 1] === "add" || (normal && lines[j + 1] === "---"))
    )
      j++;
    blocks.push({ from: i, to: j, sig: blockSignature(lines, role, i, j, cols), hunk });
    i = j;
  }
  tick(n + blocks.length);
  // Lock, generated and vendored files fold whole below: a change there is never shown, so it is
  // neither a first instance a repeat could name nor a repeat.
  const generated = names.map((name) => GENERATED.test(name));
  const shownBlocks = blocks.filter((b) => !generated[file[b.from]!]);
  const total = new Map<string, number>();
  for (const b of shownBlocks) total.set(b.sig, (total.get(b.sig) ?? 0) + 1);
  const firstAt = new Map<string, number>();
  const firstText = new Map<string, string>();
  const shown = new Map<string, number>();
  const repeatHunks = new Map<number, boolean>();
  const anchors = new Set<number>();
  const blockText = (b: { from: number; to: number }) => lines.slice(b.from, b.to + 1).join("\n");
  for (const b of shownBlocks) {
    if (!firstAt.has(b.sig)) {
      firstAt.set(b.sig, b.from);
      firstText.set(b.sig, blockText(b));
    }
    const seen = shown.get(b.sig) ?? 0;
    shown.set(b.sig, seen + 1);
    const repeat = (total.get(b.sig) ?? 0) > REPEAT_SHOWN && seen >= REPEAT_SHOWN;
    if (repeat) {
      // Signatures mask digits and the text a pair of lines shares, so a repeat may differ from
      // the first in its digits or in that shared text: the fact claims only what holds.
      const text = blockText(b);
      const first = firstText.get(b.sig)!;
      anchors.add(firstAt.get(b.sig)!);
      const at = firstAt.get(b.sig)! + 1;
      const claim =
        text === first
          ? `same change as line ${at}`
          : maskDigits(text) === maskDigits(first)
            ? `same change as line ${at} but for numbers`
            : `change like line ${at}`;
      for (let i = b.from; i <= b.to; i++) {
        keep[i] = 0;
        why[i] = claim;
      }
    }
    repeatHunks.set(b.hunk, (repeatHunks.get(b.hunk) ?? true) && repeat);
  }
  for (const b of shownBlocks) {
    if (b.to - b.from + 1 <= BIG_BLOCK) continue;
    // Sides: runs of removed or of added lines (normal format's `---` between them ends a run).
    const sides: Array<[number, number]> = [];
    for (let i = b.from; i <= b.to; i++) {
      if (role[i] !== "del" && role[i] !== "add") continue;
      let j = i;
      while (j + 1 <= b.to && role[j + 1] === role[i]) j++;
      sides.push([i, j]);
      i = j;
    }
    const head = sides.some(([i]) => role[i] !== role[b.from]) ? SIDE_HEAD : BIG_BLOCK_HEAD;
    for (const [from, to] of sides)
      for (let i = from + head; i < to; i++) {
        if (!keep[i]) continue;
        keep[i] = 0;
        why[i] = role[i] === "add" ? "added line" : "removed line";
      }
  }
  // A hunk whose every change is a repeat folds whole, header and context included.
  for (let i = 0; i < n; i++) {
    if (role[i] !== "hunk" || repeatHunks.get(i) !== true) continue;
    keep[i] = 0;
    why[i] = "hunk header";
    for (
      let j = i + 1;
      j < n && (role[j] === "ctx" || role[j] === "del" || role[j] === "add" || role[j] === "other");
      j++
    ) {
      if (role[j] === "other" && lines[j] !== "---" && !lines[j]!.startsWith("\\")) break;
      if (keep[j])
        why[j] =
          role[j] === "ctx"
            ? "context"
            : role[j] === "other"
              ? lines[j]!.startsWith("\\")
                ? "no newline at end"
                : "---"
              : why[j]!;
      keep[j] = 0;
    }
  }
  // Context runs over CONTEXT_KEEP lines, and file headers a `diff` line already names.
  for (let i = 0; i < n; i++) {
    if (role[i] === "meta") {
      keep[i] = 0;
      why[i] = "index/---/+++";
    }
    if (role[i] !== "ctx" || !keep[i]) continue;
    let j = i;
    while (j + 1 < n && role[j + 1] === "ctx" && keep[j + 1]) j++;
    if (j - i + 1 > CONTEXT_KEEP)
      for (let k = i; k <= j; k++) {
        keep[k] = 0;
        why[k] = "context";
      }
    i = j;
  }
  // A commit's message (`git log -p`, `git show`): its subject and the next MESSAGE_KEEP lines
  // stay; the rest (a dependabot body, a changelog pasted in) folds.
  for (let i = 0; i < n; i++) {
    if (!COMMIT_LINE.test(lines[i]!)) continue;
    let j = i + 1;
    while (j < n && lines[j] !== "" && !lines[j]!.startsWith("    ")) j++;
    let shown = 0;
    for (; j < n && (lines[j] === "" || lines[j]!.startsWith("    ")) && role[j] === "other"; j++) {
      if (lines[j]!.trim() === "" && shown === 0) continue;
      if (shown++ <= MESSAGE_KEEP) continue;
      keep[j] = 0;
      why[j] = "commit message line";
    }
    i = j - 1;
  }
  // Lock, generated and vendored files: everything after the file line.
  for (let f = 0; f < names.length; f++) {
    if (!generated[f]) continue;
    let added = 0;
    let removed = 0;
    let last = -1;
    for (let i = 0; i < n; i++) {
      if (file[i] !== f || role[i] === "file") continue;
      if (role[i] === "add") added++;
      else if (role[i] === "del") removed++;
      keep[i] = 0;
      last = i;
    }
    for (let i = 0; i <= last; i++)
      if (file[i] === f && role[i] !== "file")
        why[i] = `${names[f]} +${added} -${removed}, generated or lock file`;
  }
  if (!keep.includes(0)) return "not_smaller";
  const facts = diffFacts(keep, why);
  return {
    output: renderKept(lines, keep, {
      facts,
      regionGap: REGION_GAP,
      anchors,
      ...(ctx.handle ? { handle: ctx.handle } : {}),
    }),
    lossless: false,
  };
}
