// Keeps the docs navigable (`pnpm lint` runs it): every relative link in docs/ and in every
// README resolves to a file or directory of the repository (and a `#fragment` to a heading of
// that file), docs/ARCHITECTURE.md stays a map of at most 300 lines, and every decision file
// ends with its dated "## History" section. Prints one line per problem and exits 1 if any.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const SKIP = new Set(["node_modules", "dist", ".git", ".cache", "corpus", "__fixtures__", "fixtures"]);
const MAP_MAX_LINES = 300;

/** Markdown files checked: all of docs/, every README.md, and CONTRIBUTING.md. */
function markdownFiles(dir, inDocs, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) markdownFiles(path, inDocs || path === join(root, "docs"), out);
    else if (
      entry.name.endsWith(".md") &&
      (inDocs || entry.name === "README.md" || path === join(root, "CONTRIBUTING.md"))
    )
      out.push(path);
  }
  return out;
}

/** The text outside fenced code blocks and inline code spans, line by line. */
function proseLines(text) {
  let fenced = false;
  return text.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line.replace(/`[^`]*`/g, "");
  });
}

/** GitHub's heading anchor: lower case, punctuation dropped (not - or _), spaces to hyphens. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function anchors(file) {
  const seen = new Map();
  const out = new Set();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

const problems = [];
for (const file of markdownFiles(root, false)) {
  const shown = relative(root, file);
  proseLines(readFileSync(file, "utf8")).forEach((line, i) => {
    for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, ...
      const [pathPart, fragment] = target.split("#", 2);
      const dest = pathPart === "" ? file : resolve(dirname(file), decodeURIComponent(pathPart));
      if (!dest.startsWith(root) || !existsSync(dest)) {
        problems.push(`${shown}:${i + 1}: link to ${target}: no such file in the repository`);
        continue;
      }
      if (
        fragment !== undefined &&
        statSync(dest).isFile() &&
        dest.endsWith(".md") &&
        !anchors(dest).has(fragment)
      )
        problems.push(
          `${shown}:${i + 1}: link to ${target}: no heading #${fragment} in ${relative(root, dest)}`,
        );
    }
  });
}

const map = join(root, "docs", "ARCHITECTURE.md");
const mapLines = readFileSync(map, "utf8").replace(/\n$/, "").split("\n").length;
if (mapLines > MAP_MAX_LINES)
  problems.push(
    `docs/ARCHITECTURE.md: ${mapLines} lines, over the map's ${MAP_MAX_LINES}; move detail to docs/decisions/`,
  );

const decisions = join(root, "docs", "decisions");
for (const name of readdirSync(decisions).filter((n) => n.endsWith(".md"))) {
  const headings = readFileSync(join(decisions, name), "utf8")
    .split("\n")
    .filter((l) => /^## /.test(l));
  if (headings.at(-1) !== "## History")
    problems.push(`docs/decisions/${name}: its last section must be "## History" (dated entries)`);
}

for (const p of problems) process.stderr.write(`${p}\n`);
if (problems.length > 0) process.exit(1);
