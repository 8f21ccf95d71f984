// Records the hook replay set: realistic tool calls as Claude Code's PostToolUse hook receives them,
// each with a gold question (a line the model needs and the query it would retrieve it with).
// Two sources: (1) commands run here and now in a scratch directory and in this repository (pytest,
// node --test, tsc, git diff/log, grep, find, pnpm list, ls), their output recorded inline; (2) the
// engine's committed corpus of real tool outputs, wrapped as the host tool that would produce them
// (Bash, Read, Grep, MCP tools) and referenced by path and sha256. Run `node bench/replay/record.mjs`
// to regenerate calls.json (CI only replays it; recording depends on this machine's tools).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..", "..", "..");
const corpusDir = join(repo, "packages", "engine", "corpus");
const tsc = join(repo, "node_modules", ".bin", "tsc");
const scratch = mkdtempSync(join(tmpdir(), "caveman-replay-"));

function sh(cmd, cwd = scratch) {
  try {
    return {
      stdout: execFileSync("bash", ["-c", cmd], {
        cwd,
        encoding: "utf8",
        maxBuffer: 64 << 20,
        stdio: ["ignore", "pipe", "pipe"],
      }),
      code: 0,
    };
  } catch (err) {
    return { stdout: `${err.stdout ?? ""}`, stderr: `${err.stderr ?? ""}`, code: err.status ?? 1 };
  }
}

function write(path, text) {
  mkdirSync(dirname(join(scratch, path)), { recursive: true });
  writeFileSync(join(scratch, path), text);
}

const calls = [];
const bash = (id, kind, command, out, gold) =>
  calls.push({
    id,
    kind,
    tool: "Bash",
    command,
    output: { stdout: out.stdout, stderr: out.stderr ?? "" },
    gold,
  });

// --- (1) recorded now
// pytest: a payments module with 180 passing cases and two failures.
write(
  "payments.py",
  "def refund(total, amount):\n    if amount > total:\n        raise ValueError('refund exceeds total')\n    return total - amount + (1 if total == 77 else 0)\n",
);
write(
  "test_payments.py",
  `import pytest\nfrom payments import refund\n\n@pytest.mark.parametrize("total,amount", [(t, t // 3) for t in range(10, 100)])\ndef test_refund_keeps_remainder(total, amount):\n    assert refund(total, amount) == total - amount\n\n@pytest.mark.parametrize("n", range(90))\ndef test_refund_zero(n):\n    assert refund(n, 0) == n or n == 77\n\ndef test_refund_too_much():\n    with pytest.raises(ValueError, match="exceeds"):\n        refund(5, 6)\n`,
);
const pytest = sh("python3 -m pytest -v -p no:cacheprovider test_payments.py 2>&1");
bash("pytest-failing-verbose", "test", "python3 -m pytest -v test_payments.py", pytest, {
  text: "FAILED test_payments.py::test_refund_keeps_remainder[77-25]",
  query: "test_refund_keeps_remainder 77",
});
bash(
  "pytest-quiet",
  "test",
  "pytest -q test_payments.py",
  sh("python3 -m pytest -q -p no:cacheprovider test_payments.py 2>&1"),
  { text: "1 failed, 180 passed", query: "failed passed" },
);

// node --test: 120 subtests, one failing assertion.
write(
  "orders.test.mjs",
  `import { test } from "node:test";\nimport assert from "node:assert/strict";\nfor (let i = 0; i < 120; i++) test(\`order \${i} total is rounded to cents\`, () => { assert.equal(Math.round((i * 1.005) * 100) / 100, i === 64 ? 64.33 : Math.round((i * 1.005) * 100) / 100); });\n`,
);
bash("node-test-failing", "test", "node --test orders.test.mjs", sh("node --test orders.test.mjs 2>&1"), {
  text: "order 64 total is rounded to cents",
  query: "order 64 rounded",
});

// tsc: a module with type errors.
write(
  "tsconfig.json",
  JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "nodenext" },
    include: ["src"],
  }),
);
let ts = "export interface Order { id: number; total: number; status: 'open' | 'paid' }\n";
for (let i = 0; i < 400; i++)
  ts += `export const order${i}: Order = { id: ${i}, total: ${i % 7 === 3 ? `"${i}"` : i}, status: ${i % 11 === 5 ? "'shipped'" : "'open'"} };\n`;
write("src/orders.ts", ts);
const tscOut = sh(`${tsc} -p . 2>&1`);
const tscLine = tscOut.stdout.split("\n")[40] ?? "";
bash("tsc-errors", "diagnostics", "npx tsc -p .", tscOut, {
  text: tscLine.slice(0, tscLine.indexOf(": error") + 14),
  query: tscLine.slice(0, tscLine.indexOf(")") + 1),
});

// git: a scratch repository with a large change.
sh("git init -q repo && cd repo && git config user.email r@example.com && git config user.name r");
for (let f = 0; f < 12; f++) {
  const lines = Array.from(
    { length: 180 },
    (_, i) =>
      `export const setting${f}_${i} = { name: "setting-${f}-${i}", value: ${i}, enabled: ${i % 2 === 0} };`,
  );
  write(`repo/src/config${f}.ts`, `${lines.join("\n")}\n`);
}
sh("git add -A && git commit -qm 'config: initial settings'", join(scratch, "repo"));
for (let f = 0; f < 12; f++) {
  const path = join(scratch, "repo", "src", `config${f}.ts`);
  const text = readFileSync(path, "utf8")
    .replace(`value: ${40 + f}, `, `value: ${400 + f}, `)
    .replace(`value: ${120 + f}, `, `value: ${1200 + f}, `);
  writeFileSync(path, text);
}
bash("git-diff-worktree", "diff", "git diff", sh("git diff", join(scratch, "repo")), {
  text: `+export const setting7_47 = { name: "setting-7-47", value: 407, enabled: false };`,
  query: "setting7_47",
});

// This repository: history, grep, file list, dependency list, directory listing, lock file.
const log = sh("git log -p -n 12 --no-color -- packages/engine/src apps/caveman-mcp/src", repo);
const subject = /^ {4}(\S.*)$/m.exec(log.stdout.split("\ncommit ").at(-1) ?? "")?.[1] ?? "";
bash("git-log-patch", "diff", "git log -p -n 12", log, {
  text: subject,
  query: subject.split(" ").slice(0, 4).join(" "),
});
const grep = sh("grep -rn 'export function' packages/*/src --include=*.ts", repo);
const grepHit = grep.stdout.split("\n")[Math.floor(grep.stdout.split("\n").length / 2)] ?? "";
bash("grep-export-function", "grep", "grep -rn 'export function' packages/*/src", grep, {
  text: grepHit,
  query: grepHit.split(":")[0],
});
const find = sh("find packages apps -name '*.ts' -not -path '*/node_modules/*' | sort", repo);
bash("find-ts-files", "text", "find packages apps -name '*.ts' | sort", find, {
  text: "packages/edit-ops/src/doc/splice.ts",
  query: "splice.ts",
});
bash(
  "pnpm-list-json",
  "json",
  "pnpm list -r --json --depth 1",
  sh("pnpm list -r --json --depth 1 2>/dev/null", repo),
  { text: '"version": "4.0.0"', query: "gpt-tokenizer" },
);
bash(
  "ls-pnpm-store",
  "text",
  "ls -la node_modules/.pnpm",
  sh("ls -la node_modules/.pnpm | sed -E 's/ +[A-Z][a-z]{2} +[0-9]+ +[0-9:]+ / /'", repo),
  { text: "typescript@5.9.3", query: "typescript@5.9.3" },
);
const lock = sh("cat pnpm-lock.yaml", repo);
bash("cat-lockfile", "text", "cat pnpm-lock.yaml", lock, {
  text: "version: 12.11.1",
  query: "better-sqlite3",
});
bash(
  "git-status-small",
  "text",
  "git status --short",
  { stdout: " M src/config.ts\n?? notes.md\n" },
  { text: "notes.md", query: "notes" },
);

// --- (2) the engine's corpus, as the host tool that would produce each output
const manifest = JSON.parse(readFileSync(join(corpusDir, "manifest.json"), "utf8"));
const byId = new Map(manifest.items.map((it) => [it.id, it]));
const corpus = (id, tool, extra = {}) => {
  const it = byId.get(id);
  if (!it) throw new Error(`no corpus item ${id}`);
  const text = readFileSync(join(corpusDir, it.file), "utf8");
  calls.push({
    id: `corpus-${id}`,
    kind: it.kind,
    tool,
    corpus: it.file,
    sha256: createHash("sha256").update(text).digest("hex"),
    command: extra.command ?? it.hint,
    ...extra,
    gold: { text: it.gold[0].text, query: it.gold[0].query ?? it.gold[0].text },
  });
};
for (const [id, command] of [
  ["log-dpkg", "cat /var/log/dpkg.log"],
  ["log-apt-term", "cat /var/log/apt/term.log"],
  ["log-http-access", "tail -n 2000 /var/log/shop/access.log"],
  ["log-http-app", "journalctl -u shop --no-pager"],
  ["diff-git-show-argparse", "git show 3f2a1c9"],
  ["diff-git-log-stat-fs-extra", "git log --stat -p -n 3"],
  ["diff-git-picomatch-upgrade", "git diff"],
  ["test-vitest-verbose", "npx vitest run --reporter=verbose"],
  ["test-python-unittest", "python3 -m unittest -v"],
  ["test-node-test-spec", "node --test"],
  ["diagnostics-biome-lint-js-yaml", "npx biome lint lib"],
  ["diagnostics-tsc-checkjs-js-yaml", "npx tsc --noEmit --checkJs"],
  ["stacktrace-python-chained", "python3 app.py"],
  ["json-http-orders", "curl -s http://127.0.0.1:8080/api/orders?limit=240"],
  ["ndjson-http-access", "cat access.jsonl"],
  ["terminal-vitest-colour", "npx vitest run"],
  ["text-typescript-lib-sizes", "ls -l node_modules/typescript/lib"],
  ["code-eventsource-ts", "cat src/EventSource.ts"],
])
  corpus(id, "Bash", { command });
for (const [id, path] of [
  ["json-mime-db", "/work/node_modules/mime-db/db.json"],
  ["json-world-countries", "/work/data/countries.json"],
  ["json-octokit-errors-fixture", "/work/fixtures/errors.json"],
  ["table-countries-csv", "/work/data/countries.csv"],
  ["code-minisearch-ts", "/work/src/MiniSearch.ts"],
])
  corpus(id, "Read", { path });
for (const [id, pattern] of [
  ["grep-vitest-throw", "throw new Error"],
  ["grep-vite-process-env", "process.env"],
])
  corpus(id, "Grep", { pattern });
for (const [id, tool] of [
  ["json-octokit-paginated-issues", "mcp__github__list_issues"],
  ["json-octokit-search-issues", "mcp__github__search_issues"],
  ["html-pydoc-argparse", "mcp__fetch__fetch"],
  ["ndjson-world-countries", "mcp__db__query"],
])
  corpus(id, tool);

writeFileSync(
  join(here, "calls.json"),
  `${JSON.stringify({ recorded: new Date().toISOString().slice(0, 10), calls }, null, 1)}\n`,
);
process.stdout.write(
  `recorded ${calls.length} calls (${calls.filter((c) => c.output).length} run here, ${calls.filter((c) => c.corpus).length} from the engine corpus)\n`,
);
