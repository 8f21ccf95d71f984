// Hook replay benchmark: every recorded tool call of replay/calls.json goes through the built
// binary's `hook claude-code` exactly as Claude Code would run it (a fresh process, the event on
// stdin; Bash outputs over 30,000 characters arrive cut, with the full text in a persisted file).
// Reported: o200k tokens that reach the model without the hook, with it, and with it plus the
// retrieves needed to answer each call's gold question (the gold line visible, else
// `caveman_retrieve` with the gold query, else the full original); answers lost (must be 0); and
// the hook's wall time per call, p50/p99 (the host waits for the whole process).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { printTable, summarize, writeResults } from "@caveman/bench";
import { countTokens as o200k } from "gpt-tokenizer";

const here = dirname(fileURLToPath(import.meta.url));
const CLI = resolve(here, "..", "dist", "cli.js");
const corpusDir = resolve(here, "..", "..", "..", "packages", "engine", "corpus");
const REPS = Number(process.env.REPLAY_REPS ?? 3);
const PERSIST_OVER = 30_000;
// Tool output may quote special tokens ("<|endoftext|>"); they count as the plain text they are.
const countTokens = (t) => o200k(t, { disallowedSpecial: new Set() });

const base = mkdtempSync(join(tmpdir(), "caveman-replay-bench-"));
const claudeDir = join(base, "claude");
const env = {
  PATH: process.env.PATH ?? "",
  HOME: base,
  CAVEMAN_CCR_DB: join(base, "ccr.db"),
  CLAUDE_CONFIG_DIR: claudeDir,
};
const resultsDir = join(claudeDir, "projects", "replay", "session", "tool-results");
mkdirSync(resultsDir, { recursive: true });
// REPLAY_BUDGET_MS lifts the hook's time budget, to separate what compression saves from what a
// busy machine's start-up time costs (past the budget the hook passes the original).
if (process.env.REPLAY_BUDGET_MS) {
  const file = join(base, "hooks.json");
  const ms = Number(process.env.REPLAY_BUDGET_MS);
  writeFileSync(file, JSON.stringify({ budget_ms: ms, stdin_timeout_ms: ms }));
  env.CAVEMAN_HOOK_CONFIG = file;
}

const { calls } = JSON.parse(readFileSync(join(here, "replay", "calls.json"), "utf8"));

function outputOf(call) {
  if (call.output) return call.output;
  const text = readFileSync(join(corpusDir, call.corpus), "utf8");
  const sha = createHash("sha256").update(text).digest("hex");
  if (sha !== call.sha256)
    throw new Error(`${call.id}: corpus item changed; re-record (node bench/replay/record.mjs)`);
  return { stdout: text, stderr: "" };
}

const lines = (t) => (t === "" ? 0 : t.split("\n").length - (t.endsWith("\n") ? 1 : 0));

/** The hook event and the text the model sees without a hook. */
function eventOf(call) {
  const { stdout, stderr } = outputOf(call);
  const common = {
    session_id: "bench",
    transcript_path: join(claudeDir, "t.jsonl"),
    cwd: base,
    hook_event_name: "PostToolUse",
    tool_use_id: call.id,
  };
  if (call.tool === "Bash") {
    const response = { stdout, stderr, interrupted: false, isImage: false };
    if (stdout.length > PERSIST_OVER) {
      const path = join(resultsDir, `${call.id}.txt`);
      writeFileSync(path, stdout);
      Object.assign(response, {
        stdout: stdout.slice(0, PERSIST_OVER),
        persistedOutputPath: path,
        persistedOutputSize: stdout.length,
      });
    }
    return {
      event: { ...common, tool_name: "Bash", tool_input: { command: call.command }, tool_response: response },
      raw: stderr ? `${stdout}\n${stderr}` : stdout,
    };
  }
  if (call.tool === "Read") {
    const file = {
      filePath: call.path,
      content: stdout,
      numLines: lines(stdout),
      startLine: 1,
      totalLines: lines(stdout),
    };
    return {
      event: {
        ...common,
        tool_name: "Read",
        tool_input: { file_path: call.path },
        tool_response: { type: "text", file },
      },
      raw: stdout,
    };
  }
  if (call.tool === "Grep") {
    const files = [
      ...new Set(
        stdout
          .split("\n")
          .map((l) => l.split(":")[0])
          .filter(Boolean),
      ),
    ];
    const response = {
      mode: "content",
      numFiles: files.length,
      filenames: files,
      content: stdout,
      numLines: lines(stdout),
    };
    return {
      event: {
        ...common,
        tool_name: "Grep",
        tool_input: { pattern: call.pattern, output_mode: "content" },
        tool_response: response,
      },
      raw: stdout,
    };
  }
  return {
    event: {
      ...common,
      tool_name: call.tool,
      tool_input: {},
      tool_response: [{ type: "text", text: stdout }],
    },
    raw: stdout,
  };
}

/** The text the model sees after the hook (the original when the hook printed nothing). */
function seenAfter(call, stdout, raw) {
  if (stdout.trim() === "") return raw;
  const u = JSON.parse(stdout).hookSpecificOutput.updatedToolOutput;
  if (call.tool === "Bash") return u.stderr ? `${u.stdout}\n${u.stderr}` : u.stdout;
  if (call.tool === "Read") return u.file.content;
  if (call.tool === "Grep") return u.content;
  return typeof u === "string" ? u : u.map((b) => b.text).join("");
}

function cli(args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { env, encoding: "utf8", maxBuffer: 256 << 20 });
  return r.stdout;
}

// Node start-up alone, for scale: what any hook process costs before it does anything.
const startup = [];
for (let i = 0; i < 10; i++) {
  const t0 = performance.now();
  spawnSync(process.execPath, ["-e", ""], { env });
  startup.push(performance.now() - t0);
}

const rows = [];
const allMs = [];
const compressedMs = [];
const passedMs = [];
let before = 0;
let after = 0;
let retrieved = 0;
let visible = 0;
let viaQuery = 0;
let viaFull = 0;
let lost = 0;
let compressedCalls = 0;
const perKind = new Map();
for (const call of calls) {
  const { event, raw } = eventOf(call);
  const input = JSON.stringify(event);
  let stdout = "";
  let reason = "";
  const ms = [];
  for (let r = 0; r < REPS; r++) {
    const t0 = performance.now();
    const run = spawnSync(process.execPath, [CLI, "hook", "claude-code"], {
      env,
      input,
      encoding: "utf8",
      maxBuffer: 256 << 20,
    });
    ms.push(performance.now() - t0);
    if (run.status !== 0) throw new Error(`${call.id}: hook exited ${run.status}: ${run.stderr}`);
    stdout = run.stdout;
    reason = /: (compressed|passed \((.*)\))$/m.exec(run.stderr)?.[2] ?? "compressed";
  }
  const compressed = stdout.trim() !== "";
  if (compressed) compressedCalls++;
  allMs.push(...ms);
  (compressed ? compressedMs : passedMs).push(...ms);
  const seen = seenAfter(call, stdout, raw);
  const tIn = countTokens(raw);
  const tOut = countTokens(seen);
  let tRet = 0;
  let how = "visible";
  if (seen.includes(call.gold.text)) visible++;
  else {
    const handle = /recovery_handle "(ccr_[0-9a-f]{32})"/.exec(seen)?.[1];
    const narrowed = handle ? cli(["retrieve", handle, "--query", call.gold.query]) : "";
    if (handle && narrowed.includes(call.gold.text)) {
      tRet = countTokens(narrowed);
      viaQuery++;
      how = "retrieve(query)";
    } else {
      const full = handle ? cli(["retrieve", handle]) : "";
      tRet = countTokens(narrowed) + countTokens(full);
      if (full.includes(call.gold.text)) {
        viaFull++;
        how = "retrieve(full)";
      } else {
        lost++;
        how = "LOST";
      }
    }
  }
  before += tIn;
  after += tOut;
  retrieved += tRet;
  const k = perKind.get(call.kind) ?? { calls: 0, before: 0, after: 0, retrieved: 0 };
  k.calls++;
  k.before += tIn;
  k.after += tOut;
  k.retrieved += tRet;
  perKind.set(call.kind, k);
  rows.push({
    call: call.id,
    tool: call.tool,
    "tokens raw": tIn,
    "with hook": tOut,
    "+retrieve": tRet,
    hook: reason,
    gold: how,
    "hook p50 ms": Math.round(summarize(ms).p50Ms),
  });
}

printTable("hook replay, per call (o200k tokens reaching the model)", rows);
printTable(
  "hook replay, per kind",
  [...perKind].map(([kind, k]) => ({
    kind,
    calls: k.calls,
    raw: k.before,
    "with hook": k.after,
    "+retrieves": k.after + k.retrieved,
    ratio: ((k.after + k.retrieved) / k.before).toFixed(3),
  })),
);
const total = {
  calls: calls.length,
  compressed: compressedCalls,
  "tokens without hook": before,
  "with hook": after,
  "with hook + retrieves": after + retrieved,
  "ratio (hook+retrieves / without)": ((after + retrieved) / before).toFixed(3),
};
printTable("hook replay, totals", [total]);
const persisted = calls.filter((c) => c.tool === "Bash" && outputOf(c).stdout.length > PERSIST_OVER).length;
process.stdout.write(
  `(budget ${process.env.REPLAY_BUDGET_MS ?? "default"} ms; ${persisted} Bash outputs are over ${PERSIST_OVER} characters: Claude Code shows those without a hook as a preview plus a file path, not whole; "without hook" counts them whole)\n`,
);
printTable("gold answers", [
  {
    "visible without retrieve": visible,
    "via retrieve with query": viaQuery,
    "via full retrieve": viaFull,
    lost,
  },
]);
const lat = (label, s) => ({
  runs: label,
  n: s.length,
  "p50 ms": summarize(s).p50Ms.toFixed(1),
  "p99 ms": summarize(s).p99Ms.toFixed(1),
});
printTable("hook wall time per call (spawn to exit, what the host waits)", [
  lat("all hook calls", allMs),
  lat("compressed", compressedMs),
  lat("passed through", passedMs),
  lat("node -e '' (start-up alone)", startup),
]);
writeResults("hook-replay", {
  budgetMs: process.env.REPLAY_BUDGET_MS ? Number(process.env.REPLAY_BUDGET_MS) : "default",
  totals: total,
  gold: { visible, viaQuery, viaFull, lost },
  latencyMs: {
    all: summarize(allMs),
    compressed: summarize(compressedMs),
    passed: summarize(passedMs),
    nodeStartup: summarize(startup),
  },
  perKind: Object.fromEntries(perKind),
  perCall: rows,
});
if (lost > 0) process.exitCode = 1;
