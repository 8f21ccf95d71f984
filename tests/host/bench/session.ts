// The session the bench plays (issue 23): a work dir of real outputs and the calls an agent makes
// on it, each with the facts it needs from the call. Outputs come from the engine's recorded real
// corpus (real tools on real projects, gold answers by hand) and from a clone of this repository
// at a pinned commit (git log -p, git diff, grep). A failing command is a shim on PATH that prints
// the recorded output byte-exactly and exits with the status the tool gives for it.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { shellQuote } from "./score.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const CORPUS = join(REPO, "packages", "engine", "corpus", "real");
/** The commit the cloned repo is checked out at: every git and grep output is fixed by it. */
const PINNED = "fff3fbc098532e692ce622c5d5a9224d24d6d626";

interface Manifest {
  items: Array<{ id: string; file: string; gold?: Array<{ text: string }> }>;
}
const manifest = JSON.parse(readFileSync(join(CORPUS, "manifest.json"), "utf8")) as Manifest;

function item(id: string): { bytes: Buffer; gold: string[] } {
  const it = manifest.items.find((i) => i.id === id);
  if (!it) throw new Error(`corpus item ${id} is missing`);
  return { bytes: readFileSync(join(CORPUS, it.file)), gold: (it.gold ?? []).map((g) => g.text) };
}

type Tool = "Bash" | "Read" | "Grep" | "mcp";

export interface Call {
  id: string;
  tool: Tool;
  /** The tool name the model calls. */
  name: string;
  input: Record<string, unknown>;
  facts: string[];
  /** The file the call reads (where the baseline greps for a missing fact). */
  file?: string;
  /** The command of a Bash call (the baseline reruns it through grep when nothing was saved). */
  command?: string;
  /** What the command printed (stdout then stderr) or the file the MCP server read, byte for byte. */
  original?: Buffer;
  /** A shim command: what it prints (byte-exact) and its exit status. */
  shim?: { output: Buffer; exit: number };
}

export interface Session {
  root: string;
  /** Prepended to PATH for the CLI: the shims. */
  binDir: string;
  calls: Call[];
}

/** A corpus item written into the work dir, read by a Bash, Read or MCP call. */
interface FileCall {
  id: string;
  item: string;
  path: string;
  tool: Tool;
  /** The Bash command (`{}` is the path); Read and MCP read the file. */
  command?: string;
  /** JSON written pretty (`jq .`), as a report saved by a tool that writes one line is read. */
  pretty?: boolean;
  extra?: string[];
}

const FILES: FileCall[] = [
  {
    id: "cat postgres log",
    item: "log-postgres-durations",
    path: "logs/postgres.log",
    tool: "Bash",
    command: "cat {}",
  },
  {
    id: "tail redis monitor",
    item: "log-redis-monitor",
    path: "logs/redis-monitor.log",
    tool: "Bash",
    command: "tail -n 3000 {}",
  },
  {
    id: "cat flaskr log",
    item: "log-flaskr-werkzeug",
    path: "logs/flaskr.log",
    tool: "Bash",
    command: "cat {}",
  },
  {
    id: "cat access log",
    item: "log-express-morgan",
    path: "logs/access.log",
    tool: "Bash",
    command: "cat {}",
  },
  {
    id: "cat pino ndjson",
    item: "ndjson-express-pino",
    path: "logs/app.ndjson",
    tool: "Bash",
    command: "cat {}",
  },
  { id: "cat redis log", item: "log-redis-verbose", path: "logs/redis.log", tool: "Bash", command: "cat {}" },
  {
    id: "tail npm log",
    item: "log-npm-install-silly",
    path: "logs/npm-debug.log",
    tool: "Bash",
    command: "tail -n 400 {}",
  },
  {
    id: "cat http log",
    item: "log-python-http-server",
    path: "logs/http.log",
    tool: "Bash",
    command: "cat {}",
  },
  {
    id: "cat node debug",
    item: "log-express-node-debug",
    path: "logs/node-debug.log",
    tool: "Bash",
    command: "cat {}",
  },
  {
    id: "Read mocha json",
    item: "json-express-mocha-report",
    path: "reports/mocha-report.json",
    tool: "Read",
  },
  { id: "Read npm ls json", item: "json-express-npm-ls", path: "reports/npm-ls.json", tool: "Read" },
  {
    id: "Read eslint json",
    item: "json-express-eslint-report",
    path: "reports/eslint-report.json",
    tool: "Read",
    pretty: true,
  },
  // A one-line report an agent pretty-prints to read it.
  {
    id: "jq biome json",
    item: "json-vite-biome-report",
    path: "reports/biome-report.json",
    tool: "Bash",
    command: "jq . {}",
  },
  { id: "Read npm view json", item: "json-npm-view-vite", path: "reports/vite.json", tool: "Read" },
  { id: "Read flask app.py", item: "code-flask-app", path: "src/flask/app.py", tool: "Read" },
  { id: "Read JsonReader", item: "code-gson-jsonreader", path: "src/gson/JsonReader.java", tool: "Read" },
  { id: "Read response.js", item: "code-express-response", path: "src/express/response.js", tool: "Read" },
  { id: "mcp read dpkg log", item: "log-dpkg", path: "logs/dpkg.log", tool: "mcp" },
  {
    id: "mcp read pg stmts",
    item: "log-postgres-statements",
    path: "logs/postgres-statements.log",
    tool: "mcp",
  },
  { id: "mcp read pino json", item: "json-npm-view-pino", path: "reports/pino.json", tool: "mcp" },
];

/** Commands shimmed on PATH: the recorded output and the tool's own exit status for it. */
interface ShimCall {
  id: string;
  item: string;
  command: string;
  exit: number;
  /** Tracebacks go to stderr, as the runtime prints them. */
  stderr?: boolean;
  extra?: string[];
}

const SHIMS: ShimCall[] = [
  {
    id: "pytest -q",
    item: "test-flask-pytest-q",
    command: "pytest -q tests",
    exit: 1,
    extra: ["E       assert [None] == [None, None]"],
  },
  {
    id: "pytest -v basic",
    item: "test-flask-pytest-v-basic",
    command: "pytest -v tests/test_basic.py",
    exit: 1,
  },
  // mocha exits with the number of failures.
  {
    id: "mocha failing",
    item: "test-express-v4-suite-spec",
    command: "mocha --reporter spec test/",
    exit: 204,
    extra: ["TypeError: argument callback is required"],
  },
  {
    id: "mocha passing",
    item: "test-express-mocha-spec",
    command: "mocha --reporter spec --check-leaks test/",
    exit: 0,
  },
  { id: "cargo test", item: "test-regex-syntax-cargo-test", command: "cargo test --lib", exit: 0 },
  {
    id: "vitest passing",
    item: "test-caveman-vitest-edit-ops",
    command: "vitest run --reporter=verbose",
    exit: 0,
  },
  {
    id: "tsc errors",
    item: "diag-vite-tsc-no-install",
    command: "tsc --noEmit -p packages/vite/src/node",
    exit: 2,
  },
  { id: "eslint errors", item: "diag-express-eslint-stylish", command: "eslint lib test", exit: 1 },
  { id: "biome lint", item: "diag-express-biome-lint", command: "biome lint lib test", exit: 1 },
  {
    id: "cargo clippy",
    item: "diag-semver-clippy-restriction",
    command: "cargo clippy --lib --tests",
    exit: 0,
  },
  {
    id: "javac errors",
    item: "diag-gson-javac-no-classpath",
    command: "javac -d out -sourcepath gson/src/main/java gson/src/main/java/com/google/gson/Gson.java",
    exit: 1,
  },
  {
    id: "java trace",
    item: "trace-java-gson-cycle",
    command: "java -Xss512k GsonTraces cycle",
    exit: 1,
    stderr: true,
  },
  {
    id: "python traceback",
    item: "trace-python-deepcopy-recursion",
    command: "python3 repro_deepcopy.py",
    exit: 1,
    stderr: true,
  },
];

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.com", ...args], {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 << 20,
    env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
  });
}

/** Calls on the clone of this repository: facts chosen by hand from the pinned commit's outputs. */
function repoCalls(root: string): Call[] {
  const repo = join(root, "repo");
  git(root, "clone", "-q", "--no-checkout", REPO, repo);
  git(repo, "checkout", "-q", PINNED);
  // An uncommitted change an agent reviews: one option renamed through the engine's sources.
  const touched = ["packages/engine/src/dispatch.ts", "packages/engine/src/kinds/text/fold.ts"];
  for (const f of touched) {
    const p = join(repo, f);
    writeFileSync(p, readFileSync(p, "utf8").replaceAll("budget", "tokenBudget"));
  }
  const bash = (id: string, command: string, facts: string[]): Call => ({
    id,
    tool: "Bash",
    name: "Bash",
    input: { command },
    command: `cd ${root} && ${command}`,
    facts,
  });
  const calls: Call[] = [
    bash(
      "git log -p",
      "git -C repo --no-pager log -p -n 5 --no-merges --no-color 00f33e7 -- packages/engine/src",
      [
        "engine test: slice and page tests of narrow beside narrow/slice.ts (narrow.test.ts was over 300 lines)",
        "commit 3e1b00791df29921342b8b781f1f6a533ff1ad38",
      ],
    ),
    bash("git diff tags", "git -C repo --no-pager diff --no-color 00f33e7 500586a -- packages/engine/src", [
      "+function moduleOf(line: string): string {",
      "diff --git a/packages/engine/src/kinds/json/thin.ts b/packages/engine/src/kinds/json/thin.ts",
    ]),
    bash("git log --stat", "git -C repo --no-pager log --stat -n 60 --no-merges --no-color", [
      "commit 7739e8f751d00c54be790364478df9f9af50691b",
      " packages/mcp-server/src/tools/compression.ts      | 133 ++++++------",
    ]),
    bash("git diff wip", "git -C repo --no-pager diff --no-color", [
      "diff --git a/packages/engine/src/kinds/text/fold.ts b/packages/engine/src/kinds/text/fold.ts",
    ]),
    bash("grep -rn", `grep -rn 'code: "' repo/packages repo/apps --include=*.ts`, [
      'repo/packages/ccr-store/src/sqlite/store.readonly.test.ts:104:      expect.objectContaining({ code: "store_vanished" }),',
    ]),
    bash("grep -rn -C2", "grep -rn -C2 'throw new' repo/packages/*/src --include=*.ts --exclude=*.test.ts", [
      "repo/packages/chip-store/src/store.ts:209:      throw new ChipStoreError(",
    ]),
    {
      id: "Grep tool",
      tool: "Grep",
      name: "Grep",
      input: { pattern: "export function", path: join(repo, "packages"), output_mode: "content", "-n": true },
      command: `cd ${root} && grep -rn 'export function' repo/packages`,
      facts: ["export function foldLines(text: string, ctx: KindContext): Candidate | PassReason {"],
    },
  ];
  // The wip diff's facts depend on the rename above: the first renamed line of fold.ts.
  const wip = git(repo, "--no-pager", "diff", "--no-color");
  const renamed = wip
    .split("\n")
    .find((l) => l.startsWith("+") && !l.startsWith("+++") && l.includes("tokenBudget") && l.length > 20);
  if (renamed) calls.find((c) => c.id === "git diff wip")?.facts.push(renamed);
  return calls;
}

/** Lays out the work dir under `root` and the shims under `binDir`; returns the session's calls. */
export function seed(root: string, binDir: string, recorded: string): Session {
  const calls: Call[] = [];
  for (const f of FILES) {
    const { bytes, gold } = item(f.item);
    const path = join(root, f.path);
    mkdirSync(dirname(path), { recursive: true });
    const body = f.pretty
      ? Buffer.from(`${JSON.stringify(JSON.parse(bytes.toString("utf8")), null, 2)}\n`)
      : bytes;
    writeFileSync(path, body);
    const command = f.command?.replace("{}", f.path);
    calls.push({
      id: f.id,
      tool: f.tool,
      name: f.tool === "mcp" ? "mcp__fs__read_text_file" : f.tool,
      input: f.tool === "Bash" ? { command } : f.tool === "Read" ? { file_path: path } : { path },
      facts: [...gold, ...(f.extra ?? [])],
      file: path,
      ...(command ? { command: `cd ${root} && ${command}` } : {}),
    });
  }
  mkdirSync(binDir, { recursive: true });
  mkdirSync(recorded, { recursive: true });
  const byTool = new Map<string, string[]>();
  for (const s of SHIMS) {
    const { bytes, gold } = item(s.item);
    const out = join(recorded, s.item);
    writeFileSync(out, bytes);
    const [tool, ...args] = s.command.split(" ");
    const cases = byTool.get(tool!) ?? [];
    cases.push(
      `  ${shellQuote(args.join(" "))}) cat ${shellQuote(out)}${s.stderr ? " >&2" : ""}; exit ${s.exit} ;;`,
    );
    byTool.set(tool!, cases);
    calls.push({
      id: s.id,
      tool: "Bash",
      name: "Bash",
      input: { command: s.command },
      facts: [...gold, ...(s.extra ?? [])],
      command: `cd ${root} && ${s.command}`,
      shim: { output: bytes, exit: s.exit },
    });
  }
  for (const [tool, cases] of byTool) {
    if (tool === "python3") continue;
    const p = join(binDir, tool);
    writeFileSync(
      p,
      `#!/bin/sh\ncase "$*" in\n${cases.join("\n")}\n  *) echo "${tool}: unknown arguments: $*" >&2; exit 2 ;;\nesac\n`,
    );
    chmodSync(p, 0o755);
  }
  // The traceback comes from a script run by the real python3 (never shadowed): it prints the
  // recorded bytes to stderr and exits 1, as the uncaught exception did.
  const py = SHIMS.find((s) => s.command.startsWith("python3 "));
  if (py) {
    copyFileSync(join(recorded, py.item), join(recorded, "traceback.txt"));
    writeFileSync(
      join(root, "repro_deepcopy.py"),
      `import sys\nsys.stderr.buffer.write(open(${JSON.stringify(join(recorded, "traceback.txt"))}, "rb").read())\nsys.exit(1)\n`,
    );
  }
  calls.push(...repoCalls(root));
  checkFacts(calls, root, binDir);
  return { root, binDir, calls: order(calls) };
}

/** Every fact must be in the call's real output, or the bench scores an unreachable answer. */
function checkFacts(calls: Call[], root: string, binDir: string): void {
  for (const c of calls) {
    if (c.facts.length === 0) throw new Error(`${c.id}: no facts`);
    const out =
      c.tool === "Read" || c.tool === "mcp"
        ? readFileSync(c.file ?? "")
        : spawnSync("bash", ["-c", c.command ?? ""], {
            cwd: root,
            maxBuffer: 64 << 20,
            env: { ...process.env, PATH: `${binDir}:${process.env.PATH ?? ""}` },
          });
    const bytes = Buffer.isBuffer(out) ? out : Buffer.concat([out.stdout, out.stderr]);
    if (c.tool === "Bash" || c.tool === "mcp") c.original = bytes;
    const text = bytes.toString("utf8");
    const absent = c.facts.filter((f) => !text.includes(f));
    if (absent.length) throw new Error(`${c.id}: facts not in its output: ${absent.join(" | ")}`);
  }
}

/** The session's order: an agent alternates reading logs, running tests, reading code and reviewing. */
function order(calls: Call[]): Call[] {
  const want = [
    "cat postgres log",
    "pytest -q",
    "Read flask app.py",
    "cat flaskr log",
    "pytest -v basic",
    "git log -p",
    "mocha failing",
    "Read mocha json",
    "cat access log",
    "Read response.js",
    "tsc errors",
    "grep -rn",
    "eslint errors",
    "Read eslint json",
    "cat pino ndjson",
    "mcp read dpkg log",
    "git diff tags",
    "biome lint",
    "jq biome json",
    "cat redis log",
    "tail redis monitor",
    "cargo test",
    "cargo clippy",
    "Grep tool",
    "javac errors",
    "Read JsonReader",
    "java trace",
    "python traceback",
    "mcp read pg stmts",
    "tail npm log",
    "Read npm ls json",
    "mcp read pino json",
    "Read npm view json",
    "cat http log",
    "cat node debug",
    "git log --stat",
    "grep -rn -C2",
    "mocha passing",
    "vitest passing",
    "git diff wip",
  ];
  const byId = new Map(calls.map((c) => [c.id, c]));
  const out = want.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  const missing = calls.filter((c) => !want.includes(c.id));
  return [...out, ...missing];
}
