// Diff and grep items of the broad corpus: a seeded TypeScript/Python project is written to a
// temp directory, committed with git (fixed author, dates and environment), edited, branched and
// merged with a hand-resolved conflict; then the real git, diff and grep print every form of
// output an agent meets. ripgrep is not installed here, so its --vimgrep and heading forms are
// rendered from grep's hits by the same rules rg uses (path:line:col:text; path, hits, blank).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { makeTemp, run, toolEnv } from "../../lib/util.mjs";
import { rng } from "./rand.mjs";

const GIT_ENV = toolEnv({
  GIT_AUTHOR_NAME: "Ada Dev",
  GIT_AUTHOR_EMAIL: "ada@example.com",
  GIT_COMMITTER_NAME: "Ada Dev",
  GIT_COMMITTER_EMAIL: "ada@example.com",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
});

const NOUNS = ["order", "cart", "user", "invoice", "payment", "session", "item", "stock", "refund", "coupon"];
const VERBS = ["load", "save", "validate", "render", "apply", "compute", "fetch", "merge", "parse", "retry"];

function tsFunction(r, name) {
  const a = r.pick(NOUNS);
  const body = [];
  const n = r.int(3, 12);
  for (let i = 0; i < n; i++) {
    body.push(
      r.pick([
        `  const ${a}${i} = await repo.${r.pick(VERBS)}(${a}Id, { limit: ${r.int(1, 500)} });`,
        `  if (!${a}${Math.max(0, i - 1)}) throw new NotFoundError(\`${a} \${${a}Id} not found\`);`,
        `  log.debug("${name}: step ${i}", { ${a}Id, attempt: ${r.int(1, 5)} });`,
        `  total += ${a}${Math.max(0, i - 1)}?.amount ?? 0; // TODO: currency rounding`,
        `  for (const line of ${a}${Math.max(0, i - 1)}?.lines ?? []) seen.add(line.sku);`,
      ]),
    );
  }
  return [
    `export async function ${name}(${a}Id: string, repo: Repo): Promise<number> {`,
    "  let total = 0;",
    "  const seen = new Set<string>();",
    ...body,
    "  return total;",
    "}",
    "",
  ];
}

function pyFunction(r, name) {
  const a = r.pick(NOUNS);
  const body = [];
  for (let i = 0, n = r.int(3, 9); i < n; i++) {
    body.push(
      r.pick([
        `    ${a}_${i} = repo.${r.pick(VERBS)}(${a}_id, limit=${r.int(1, 500)})`,
        `    if not ${a}_${Math.max(0, i - 1)}:`,
        `        raise LookupError(f"${a} {${a}_id} not found")`,
        `    log.debug("${name}: step ${i}", extra={"attempt": ${r.int(1, 5)}})`,
        `    total += getattr(${a}_${Math.max(0, i - 1)}, "amount", 0)  # TODO: currency rounding`,
      ]),
    );
  }
  return [`def ${name}(${a}_id, repo):`, "    total = 0", ...body, "    return total", "", ""];
}

function makeProject(r) {
  const files = {};
  for (let f = 0; f < 28; f++) {
    const mod = `${NOUNS[f % NOUNS.length]}${f >= NOUNS.length ? Math.floor(f / NOUNS.length) : ""}`;
    const py = f % 4 === 3;
    const lines = py
      ? ["import logging", "", "log = logging.getLogger(__name__)", "", ""]
      : [`import { log } from "../log.js";`, `import { NotFoundError, type Repo } from "../repo.js";`, ""];
    for (let k = 0, n = r.int(6, 14); k < n; k++) {
      const name = py
        ? `${r.pick(VERBS)}_${mod}_${k}`
        : `${r.pick(VERBS)}${mod[0].toUpperCase()}${mod.slice(1)}${k}`;
      lines.push(...(py ? pyFunction(r, name) : tsFunction(r, name)));
    }
    files[py ? `py/${mod}.py` : `src/${mod}/index.ts`] = lines;
  }
  return files;
}

function writeFiles(dir, files) {
  for (const [path, lines] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), `${lines.join("\n")}\n`);
  }
}

/** A second version: renamed calls, inserted guards, deleted steps, one new file. */
function editProject(r, files, salt) {
  const out = {};
  for (const [path, lines] of Object.entries(files)) {
    if (r.next() < 0.35) {
      out[path] = lines;
      continue;
    }
    const next = [];
    for (const line of lines) {
      const x = r.next();
      if (x < 0.03 && line.includes("await repo.")) continue;
      if (x < 0.08 && line.includes("limit:"))
        next.push(line.replace(/limit: \d+/, `limit: ${r.int(1, 500)}, signal`));
      else if (x < 0.1 && line.includes("TODO"))
        next.push(line.replace("// TODO: currency rounding", `// rounded by Money.add (${salt})`));
      else next.push(line);
      if (x > 0.985 && line.startsWith("export async function"))
        next.push("  if (retries > MAX_RETRIES) throw new RetryError(retries);");
    }
    out[path] = next;
  }
  out["src/retry/policy.ts"] = [
    `export const MAX_RETRIES = 5;`,
    `export class RetryError extends Error {}`,
    ...tsFunction(r, "backoffDelay"),
  ];
  return out;
}

function git(cwd, ...args) {
  return run("git", args, { cwd, env: GIT_ENV });
}

function commit(cwd, message, date) {
  git(cwd, "add", "-A");
  run("git", ["commit", "-q", "-m", message], {
    cwd,
    env: { ...GIT_ENV, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
  });
}

const item = (id, family, hint, content, gold, source) => ({
  id,
  kind: family.split(":")[0],
  family,
  hint,
  ext: "txt",
  source,
  content,
  gold,
});

/** Gold: the first line of `text` matching `pattern`, as it is written. */
function goldLine(text, pattern, query) {
  const line = text.split("\n").find((l) => pattern.test(l));
  if (!line) throw new Error(`no gold line for ${pattern}`);
  return { text: line, query: query ?? line.slice(0, 80) };
}

/** Every diff and grep item. */
export function vcsItems() {
  const r = rng("vcs-project");
  const dir = makeTemp("vcs");
  const v1 = makeProject(r);
  git(dir, "init", "-q", "-b", "main");
  writeFiles(dir, v1);
  commit(dir, "shop: first cut of the order services", "2026-11-01T09:00:00Z");
  const v2 = editProject(r, v1, "v2");
  writeFiles(dir, v2);
  commit(dir, "retry: bounded retries, signals passed to the repo", "2026-11-02T09:00:00Z");
  // A branch and a conflicting merge, resolved by hand, so `git show` prints a combined diff.
  git(dir, "checkout", "-q", "-b", "feature", "HEAD~1");
  const target = Object.keys(v1).find(
    (f) =>
      f.endsWith(".ts") && v1[f].join("\n") !== v2[f].join("\n") && v2[f].some((l) => l.includes("signal")),
  );
  const side = v1[target].map((l) => l.replace(/limit: (\d+)/, "limit: $1, cursor"));
  writeFiles(dir, { [target]: side });
  commit(dir, "cart: paginate with a cursor", "2026-11-02T10:00:00Z");
  git(dir, "checkout", "-q", "main");
  run("git", ["merge", "-q", "--no-ff", "--no-commit", "feature"], {
    cwd: dir,
    env: { ...GIT_ENV, GIT_AUTHOR_DATE: "2026-11-02T11:00:00Z", GIT_COMMITTER_DATE: "2026-11-02T11:00:00Z" },
  });
  const resolved = v2[target].map((l) => l.replace(/limit: (\d+)(, signal)?/, "limit: $1, cursor, signal"));
  writeFiles(dir, { [target]: resolved });
  commit(dir, "merge feature: cursor and signal both", "2026-11-02T11:00:00Z");

  const items = [];
  const diff = git(dir, "diff", "HEAD~2", "HEAD~1").stdout;
  const guard = "+  if (retries > MAX_RETRIES) throw new RetryError(retries);";
  items.push(
    item(
      "diff-git-unified",
      "diff:git-diff",
      "git diff HEAD~1",
      diff,
      [{ text: guard, query: "MAX_RETRIES RetryError" }],
      "git diff of a seeded two-commit project",
    ),
  );
  const stat = git(dir, "log", "--stat", "--format=commit %h%n%s%n").stdout;
  items.push(
    item(
      "diff-git-stat",
      "diff:stat",
      "git log --stat",
      stat,
      [goldLine(stat, /src\/retry\/policy\.ts/, "policy.ts")],
      "git log --stat of the four commits",
    ),
  );
  const u0 = git(dir, "diff", "-U0", "HEAD~2", "HEAD~1").stdout;
  items.push(
    item(
      "diff-git-u0",
      "diff:u0",
      "git diff -U0",
      u0,
      [{ text: guard, query: "MAX_RETRIES RetryError" }],
      "git diff -U0",
    ),
  );
  const word = git(dir, "diff", "--word-diff", "HEAD~2", "HEAD~1").stdout;
  items.push(
    item(
      "diff-git-word",
      "diff:word-diff",
      "git diff --word-diff",
      word,
      [goldLine(word, /\{\+.*signal/, "signal")],
      "git diff --word-diff",
    ),
  );
  const merge = git(dir, "show", "HEAD").stdout;
  items.push(
    item(
      "diff-git-combined",
      "diff:combined",
      "git show HEAD",
      merge,
      [goldLine(merge, /^diff --cc/, "diff --cc"), goldLine(merge, /cursor, signal/, "cursor, signal")],
      "git show of a hand-resolved merge (combined diff --cc)",
    ),
  );
  const show = git(dir, "show", "HEAD~1").stdout;
  items.push(
    item(
      "diff-git-show",
      "diff:git-show",
      "git show",
      show,
      [
        { text: "retry: bounded retries, signals passed to the repo", query: "bounded retries" },
        { text: guard, query: "MAX_RETRIES RetryError" },
      ],
      "git show of a commit",
    ),
  );
  // Plain diff(1) between two checkouts of the project.
  const a = makeTemp("diff-a");
  const b = makeTemp("diff-b");
  writeFiles(a, v1);
  writeFiles(b, v2);
  const relabel = (text) =>
    text
      .replaceAll(a, "a")
      .replaceAll(b, "b")
      .replace(/\t\d{4}-\d\d-\d\d [\d:.]+ \+0000/g, "\t2026-11-02 09:00:00.000000000 +0000");
  const du = relabel(run("diff", ["-ru", a, b], { env: toolEnv() }).stdout);
  items.push(
    item(
      "diff-u-recursive",
      "diff:diff-u",
      "diff -ru a b",
      du,
      [{ text: guard, query: "MAX_RETRIES RetryError" }],
      "diff -ru of two project checkouts",
    ),
  );
  const normal = relabel(run("diff", ["-r", a, b], { env: toolEnv() }).stdout);
  items.push(
    item(
      "diff-normal",
      "diff:normal",
      "diff -r a b",
      normal,
      [goldLine(normal, /^> .*MAX_RETRIES/, "MAX_RETRIES")],
      "diff -r (normal format) of two project checkouts",
    ),
  );

  // grep forms over the final tree (sorted walk so the order is fixed).
  const files = git(dir, "ls-files").stdout.trim().split("\n").sort();
  const grepRn = run("grep", ["-n", "-E", "TODO|throw new", ...files], { cwd: dir }).stdout;
  const planted = goldLine(grepRn, /RetryError\(retries\)/, "RetryError retries");
  items.push(
    item("grep-rn", "grep:grep-rn", "grep -rn", grepRn, [planted], "grep -n over the project files"),
  );
  const counts = run("grep", ["-c", "repo\\.", ...files], { cwd: dir })
    .stdout.trim()
    .split("\n");
  const grepC = `${[0, 1, 2, 3, 4, 5].flatMap((k) => counts.map((c) => `pkg${k}/${c}`)).join("\n")}\n`;
  items.push(
    item(
      "grep-count",
      "grep:grep-c",
      "grep -rc",
      grepC,
      [goldLine(grepC, /^pkg5\/src\/retry\/policy\.ts:/, "policy.ts")],
      "grep -c per file over six copies of the project tree",
    ),
  );
  const many = [];
  for (let k = 0; k < 8; k++) for (const f of files) many.push(`pkg${k}/${f}`);
  const grepL = `${many.join("\n")}\n`;
  items.push(
    item(
      "grep-files",
      "grep:grep-l",
      "grep -rl",
      grepL,
      [{ text: "pkg7/src/retry/policy.ts", query: "retry policy" }],
      "grep -l over eight copies of the project tree",
    ),
  );
  const gitGrep = git(dir, "grep", "-n", "-E", "await repo|TODO|rounded by").stdout;
  items.push(
    item(
      "grep-git-grep",
      "grep:git-grep",
      "git grep -n",
      gitGrep,
      [goldLine(gitGrep, /rounded by Money\.add/, "Money.add")],
      "git grep -n",
    ),
  );
  const hits = run("grep", ["-n", "-E", "await repo|raise|throw new", ...files], { cwd: dir })
    .stdout.trim()
    .split("\n");
  const vim = hits.map((h) => {
    const m = /^([^:]+):(\d+):(.*)$/.exec(h);
    const col = m[3].search(/await repo|raise|throw new/) + 1;
    return `${m[1]}:${m[2]}:${col}:${m[3]}`;
  });
  items.push(
    item(
      "grep-rg-vimgrep",
      "grep:rg-vimgrep",
      "rg --vimgrep",
      `${vim.join("\n")}\n`,
      [goldLine(vim.join("\n"), /RetryError\(retries\)/, "RetryError retries")],
      "rg --vimgrep form of grep hits",
    ),
  );
  const heading = [];
  let last = "";
  for (const h of hits) {
    const m = /^([^:]+):(\d+):(.*)$/.exec(h);
    if (m[1] !== last) {
      if (last) heading.push("");
      heading.push(m[1]);
      last = m[1];
    }
    heading.push(`${m[2]}:${m[3]}`);
  }
  items.push(
    item(
      "grep-rg-heading",
      "grep:rg-heading",
      "rg",
      `${heading.join("\n")}\n`,
      [goldLine(heading.join("\n"), /RetryError\(retries\)/, "RetryError retries")],
      "rg heading form of grep hits",
    ),
  );
  const catN = run("cat", ["-n", "src/order/index.ts", "src/cart/index.ts", "src/user/index.ts"], {
    cwd: dir,
  }).stdout;
  items.push(
    item(
      "code-cat-n",
      "code:cat-n",
      "cat -n",
      catN,
      [goldLine(catN, /export async function/, "export async function")],
      "cat -n of three project files",
    ),
  );
  return items;
}
