// Unified diffs. Every header line, hunk header and +/- line is kept; only runs of unchanged
// context longer than two lines collapse. Lock files and generated files fold to per-file stats
// (+added -removed) after their header, because nobody reads them line by line.
import { renderKept } from "./lines.js";
import type { Candidate, KindContext, PassReason } from "./types.js";

const GENERATED =
  /(^|\/)(pnpm-lock\.yaml|package-lock\.json|yarn\.lock|npm-shrinkwrap\.json|Cargo\.lock|poetry\.lock|Pipfile\.lock|composer\.lock|Gemfile\.lock|go\.sum|bun\.lockb?)$|\.min\.(js|css)$|\.map$|(^|\/)(dist|vendor|node_modules)\/|\.snap$|\.generated\.\w+$/;
const CONTEXT_KEEP = 2;

interface FileSpan {
  name: string;
  bodyFrom: number;
  to: number;
}

function fileSpans(lines: readonly string[]): FileSpan[] {
  const spans: FileSpan[] = [];
  lines.forEach((line, i) => {
    if (line.startsWith("diff --git ")) {
      const m = / b\/(.+)$/.exec(line);
      spans.push({ name: m?.[1] ?? line.slice(11), bodyFrom: -1, to: i });
    }
    const last = spans[spans.length - 1];
    if (!last) return;
    last.to = i;
    if (last.bodyFrom < 0 && line.startsWith("@@")) last.bodyFrom = i;
  });
  return spans;
}

/** Compresses a unified diff, or says why it cannot. */
export function compressDiff(text: string, ctx: KindContext): Candidate | PassReason {
  const lines = text.split("\n");
  const keep = new Uint8Array(lines.length).fill(1);
  const folded = new Map<number, string>();
  let inHunk = false;
  let run: number[] = [];
  const flushContext = () => {
    if (run.length > CONTEXT_KEEP) for (const i of run) keep[i] = 0;
    run = [];
  };
  lines.forEach((line, i) => {
    if (line.startsWith("@@")) {
      flushContext();
      inHunk = true;
      return;
    }
    if (line.startsWith("diff --git ")) {
      flushContext();
      inHunk = false;
      return;
    }
    if (inHunk && (line.startsWith(" ") || line === "")) run.push(i);
    else flushContext();
  });
  flushContext();
  for (const span of fileSpans(lines)) {
    if (span.bodyFrom < 0 || !GENERATED.test(span.name)) continue;
    let added = 0;
    let removed = 0;
    for (let i = span.bodyFrom; i <= span.to; i++) {
      const line = lines[i]!;
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) removed++;
      keep[i] = 0;
    }
    folded.set(span.to, `${span.name} +${added} -${removed}, generated or lock file`);
  }
  if (!keep.includes(0)) return "not_smaller";
  const facts = (_from: number, to: number): string[] => [folded.get(to) ?? "unchanged context"];
  return {
    output: renderKept(lines, keep, { facts, ...(ctx.handle ? { handle: ctx.handle } : {}) }),
    lossless: false,
  };
}
