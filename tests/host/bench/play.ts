// Plays the session in the real Claude Code CLI against the scripted model, once per mode:
// (a) no caveman-mcp; (b) after `caveman-mcp install claude-code` in the throwaway HOME, the
// filesystem server behind `caveman-mcp proxy`. Each call's result is read from the first request
// that carries it (later requests may have had old results cleared by the host).
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { findClaude, hostEnv, runClaude, SERVER_CLI, workspace } from "../test/claude.js";
import { type ScriptedBlock, type ScriptedTurn, startFakeModel } from "../test/fakeModel.js";
import {
  type CallScore,
  type FailingCheck,
  grepFollowUp,
  type HookRun,
  handleIn,
  hookRuns,
  hostCut,
  median,
  persistedPath,
  scoreFacts,
  tokens,
} from "./score.js";
import { type Call, seed } from "./session.js";

const REPO = resolve(SERVER_CLI, "..", "..", "..", "..");
const BUNDLE = join(REPO, "apps", "claude-plugin", "dist", "plugins", "caveman-mcp", "server", "cli.mjs");
const FILESYSTEM = join(
  REPO,
  "apps",
  "caveman-mcp",
  "node_modules",
  "@modelcontextprotocol",
  "server-filesystem",
  "dist",
  "index.js",
);
/** The hook's default floor_tokens: a failing command under it is not expected to be compressed. */
const FLOOR_TOKENS = 500;
const RETRIEVE = "mcp__plugin_caveman-mcp_caveman__caveman_retrieve";

export type Mode = "a" | "b";

interface Step {
  kind: "call" | "followup" | "toolsearch" | "full" | "done";
  call: number;
  fact?: string;
  via?: "retrieve" | "grep";
  stage?: number;
  stages?: Stage[];
}

interface Stage {
  via: "retrieve" | "grep";
  handle?: string;
  saved?: string;
  /** The host saved an MCP result as JSON: the agent greps its strings (`jq`). */
  json?: boolean;
}

interface Got {
  text: string;
  isError: boolean;
}

export interface ModeResult {
  mode: Mode;
  calls: CallScore[];
  failing: FailingCheck[];
  fullRetrieves: number;
  fullRetrieveErrors: number;
  fullRetrievePaged: number;
  /** Each full retrieve (mode b): what it cost and whether it came as pages or as a host error. */
  fullRetrieve: Array<{ id: string; tokens: number; pages: number; error: boolean }>;
  schemaTokens: number;
  toolSearchTokens: number;
  /** Every PostToolUse run of our hook (follow-ups included): count and p50 milliseconds. */
  hookRuns: number;
  hookRunsP50: number | undefined;
  /** Where the run's files are (kept with BENCH_KEEP=1). */
  dir: string;
  exit: number | null;
  ms: number;
  scriptErrors: string[];
  install?: string;
}

interface Message {
  role: string;
  content: unknown;
}

function blocksOf(content: unknown): Array<Record<string, unknown>> {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? (content as Array<Record<string, unknown>>) : [];
}

/** Every tool result as the model first received it, by tool_use id. */
function firstResults(bodies: Array<Record<string, unknown>>): Map<string, Got> {
  const out = new Map<string, Got>();
  for (const body of bodies)
    for (const m of (body.messages ?? []) as Message[]) {
      if (m.role !== "user") continue;
      for (const b of blocksOf(m.content)) {
        if (b.type !== "tool_result" || typeof b.tool_use_id !== "string" || out.has(b.tool_use_id)) continue;
        const text = blocksOf(b.content)
          .map((c) => (typeof c.text === "string" ? c.text : `[${String(c.type)}]`))
          .join("\n");
        out.set(b.tool_use_id, { text, isError: b.is_error === true });
      }
    }
  return out;
}

function install(env: Record<string, string>, cwd: string): string {
  const r = spawnSync(process.execPath, [BUNDLE, "install", "claude-code"], {
    cwd,
    env,
    encoding: "utf8",
    timeout: 300_000,
  });
  if (r.status !== 0)
    throw new Error(`caveman-mcp install claude-code: exit ${r.status}\n${r.stdout}${r.stderr}`);
  return `${r.stdout}${r.stderr}`.trim();
}

/** The stable copy the install made (~/.caveman/app/<version>/...): the user's proxy binary. */
function stableCli(home: string): string {
  const app = join(home, ".caveman", "app");
  for (const v of readdirSync(app)) {
    const p = join(app, v, "plugins", "caveman-mcp", "server", "cli.mjs");
    if (existsSync(p)) return p;
  }
  throw new Error(`no stable copy under ${app}`);
}

/** The CLI under test: BENCH_CLAUDE=<path of a claude binary> (another version), else the pinned one. */
export function claudeBinary(): { path: string } {
  const other = process.env.BENCH_CLAUDE?.trim();
  if (other) return { path: other };
  const found = findClaude();
  if (!("path" in found)) throw new Error(found.missing);
  return found;
}

export interface PlayOptions {
  only?: (c: Call) => boolean;
  /** The hook's config file contents (CAVEMAN_HOOK_CONFIG); none: the user's defaults. */
  hookConfig?: string;
  keep?: boolean;
  log?: (line: string) => void;
}

export async function play(mode: Mode, options: PlayOptions = {}): Promise<ModeResult> {
  const log = options.log ?? (() => {});
  const claude = claudeBinary();
  for (const f of [SERVER_CLI, BUNDLE, FILESYSTEM])
    if (!existsSync(f)) throw new Error(`${f} is missing; run \`pnpm build\` first`);
  const ws = workspace();
  const home = join(ws.base, "home");
  mkdirSync(home, { recursive: true });
  const session = seed(ws.root, join(ws.base, "shims"), join(ws.base, "recorded"));
  const calls = session.calls.filter(options.only ?? (() => true));
  const bin = join(ws.base, "bin");
  mkdirSync(bin);
  symlinkSync(claude.path, join(bin, "claude"));
  const path = [session.binDir, bin, dirname(process.execPath), process.env.PATH ?? "/usr/bin:/bin"].join(
    ":",
  );
  const plans = new Map<number, Step[]>();
  /** When each main request came in (the turn's blocks ran after it, before the next one). */
  const asked = new Map<number, number>();
  const fs = "mcp__fs__read_text_file";
  const select = mode === "a" ? `select:${fs}` : `select:${fs},${RETRIEVE}`;
  /** Turn and block index of each call's own tool_use. */
  const callAt = new Map<number, string>();
  /**
   * The ways an agent gets a missing fact, tried in order until one shows it: our retrieve with the
   * fact as the query (mode b, a handle given), a grep of the file the host saved the output to,
   * then a grep of the file the call read (or the command again through grep).
   */
  const stagesFor = (got: string): Stage[] => {
    const h = mode === "b" ? handleIn(got) : undefined;
    const saved = persistedPath(got);
    const out: Stage[] = [];
    if (h) out.push({ via: "retrieve", handle: h });
    if (saved) out.push({ via: "grep", saved, json: hostCut(got) === "mcp_over_limit" });
    out.push({ via: "grep" });
    return out;
  };
  const stepOf = (
    c: Call,
    i: number,
    fact: string,
    stages: Stage[],
    stage: number,
  ): [Step, ScriptedBlock] => {
    const st = stages[stage]!;
    const step: Step = { kind: "followup", call: i, fact, via: st.via, stage, stages };
    if (st.via === "retrieve")
      return [step, { type: "tool_use", name: RETRIEVE, input: { recovery_handle: st.handle, query: fact } }];
    const command = st.saved
      ? grepFollowUp(fact, { saved: st.saved, ...(st.json ? { json: true } : {}) })
      : grepFollowUp(fact, {
          ...(c.file ? { file: c.file } : {}),
          ...(c.command ? { command: c.command } : {}),
        });
    return [step, { type: "tool_use", name: "Bash", input: { command } }];
  };
  // One call per turn; then turns of follow-ups while a fact is unseen and a way is left.
  const next = (n: number, results: ReadonlyMap<string, { text: string }>): [Step[], ScriptedBlock[]] => {
    if (n === 0)
      return [
        [{ kind: "toolsearch", call: -1 }],
        [{ type: "tool_use", name: "ToolSearch", input: { query: select } }],
      ];
    const prev = plans.get(n - 1) ?? [];
    const last = prev[prev.length - 1];
    const pairs: Array<[Step, ScriptedBlock]> = [];
    let nextCall = 0;
    if (last?.kind === "call") {
      const c = calls[last.call]!;
      const got = results.get(`t${n - 1}_0`)?.text ?? "";
      const stages = stagesFor(got);
      for (const fact of scoreFacts(got, c.facts).missing) pairs.push(stepOf(c, last.call, fact, stages, 0));
      nextCall = last.call + 1;
    } else if (last?.kind === "followup") {
      prev.forEach((s, k) => {
        if (!s.fact || !s.stages || s.stage === undefined) return;
        const got = results.get(`t${n - 1}_${k}`)?.text ?? "";
        if (!got.includes(s.fact) && s.stage + 1 < s.stages.length)
          pairs.push(stepOf(calls[s.call]!, s.call, s.fact, s.stages, s.stage + 1));
      });
      nextCall = last.call + 1;
    } else if (last?.kind === "full") return [[{ kind: "done", call: -1 }], []];
    if (pairs.length) return [pairs.map((p) => p[0]), pairs.map((p) => p[1])];
    const c = calls[nextCall];
    if (c) {
      callAt.set(nextCall, `t${n}_0`);
      return [[{ kind: "call", call: nextCall }], [{ type: "tool_use", name: c.name, input: c.input }]];
    }
    // After the last call, in mode b: a full retrieve of every handle the model was given (the
    // target: none is a host error, an original over the host's MCP limit comes back in pages).
    const steps: Step[] = [];
    const blocks: ScriptedBlock[] = [];
    if (mode === "b")
      calls.forEach((_, i) => {
        const h = handleIn(results.get(callAt.get(i) ?? "")?.text ?? "");
        if (!h) return;
        steps.push({ kind: "full", call: i });
        blocks.push({ type: "tool_use", name: RETRIEVE, input: { recovery_handle: h } });
      });
    return steps.length ? [steps, blocks] : [[{ kind: "done", call: -1 }], []];
  };
  const turns: ScriptedTurn[] = Array.from({ length: 3 * calls.length + 4 }, (_, n) => (results) => {
    if (!asked.has(n)) asked.set(n, Date.now());
    const [steps, blocks] = next(n, results);
    plans.set(n, steps);
    return blocks.length ? blocks : [{ type: "text", text: "done" }];
  });
  const callId = (i: number) => callAt.get(i) ?? "";

  const fake = await startFakeModel(turns);
  const debugFile = join(ws.base, "debug.txt");
  let installed: string | undefined;
  let result: Awaited<ReturnType<typeof runClaude>>;
  try {
    const extra: Record<string, string> = { PATH: path };
    if (options.hookConfig !== undefined) {
      writeFileSync(join(ws.base, "hooks.json"), options.hookConfig);
      extra.CAVEMAN_HOOK_CONFIG = join(ws.base, "hooks.json");
    }
    const env = await hostEnv(home, fake.url, extra);
    if (mode === "b") installed = install(env, ws.root);
    const fsServer =
      mode === "a"
        ? { command: process.execPath, args: [FILESYSTEM, ws.root] }
        : {
            command: process.execPath,
            args: [stableCli(home), "proxy", "--", process.execPath, FILESYSTEM, ws.root],
          };
    // Not mcp.json: runClaude writes that one (its own caveman server) even when it is not passed.
    const mcpConfig = join(ws.base, "bench-mcp.json");
    writeFileSync(mcpConfig, JSON.stringify({ mcpServers: { fs: { type: "stdio", ...fsServer, env: {} } } }));
    log(`[bench] mode ${mode}: ${calls.length} calls in ${ws.base}`);
    result = await runClaude({
      claude: claude.path,
      apiUrl: fake.url,
      ws,
      prompt: "Investigate the failing build and the logs; review the changes.",
      mcpConfig: false,
      args: [
        "--mcp-config",
        mcpConfig,
        "--debug-file",
        debugFile,
        "--tools",
        "Bash,Read,Grep,Glob,ToolSearch",
      ],
      env: extra,
      timeoutMs: 1_800_000,
    });
  } finally {
    await fake.close();
  }
  const main = fake.requests.filter((r) => r.main).map((r) => r.body);
  const got = firstResults(main);
  const debug = existsSync(debugFile) ? readFileSync(debugFile, "utf8") : "";
  writeFileSync(join(ws.base, "results.json"), JSON.stringify(Object.fromEntries(got), null, 1));
  // The request after ToolSearch: the deferred MCP tools are loaded by then.
  const first = main[1] ?? main[0] ?? {};
  const schemaTokens = tokens(JSON.stringify(first.tools ?? [])) + tokens(JSON.stringify(first.system ?? ""));

  const scores: CallScore[] = calls.map((c, i) => {
    const r = got.get(callId(i)) ?? { text: "", isError: true };
    const { seen } = scoreFacts(r.text, c.facts);
    const found = new Set(seen);
    let followUps = 0;
    let followUpTokens = 0;
    const retrieveTokens: number[] = [];
    for (const [t, steps] of plans)
      steps.forEach((s, k) => {
        if (s.kind !== "followup" || s.call !== i) return;
        const fu = got.get(`t${t}_${k}`);
        const n = tokens(fu?.text ?? "");
        followUps++;
        followUpTokens += n;
        if (s.via === "retrieve") retrieveTokens.push(n);
        if (s.fact && fu?.text.includes(s.fact)) found.add(s.fact);
      });
    return {
      id: c.id,
      tool: c.tool,
      tokens: tokens(r.text),
      facts: c.facts.length,
      firstLook: seen.length,
      found: found.size,
      followUps,
      followUpTokens,
      retrieveTokens,
      host: hostCut(r.text),
      handle: handleIn(r.text) !== undefined,
      isError: r.isError,
      verdict: "",
    };
  });
  const runs = hookRuns(debug);
  if (mode === "b") attachHooks(scores, callAt, asked, runs);

  const failing: FailingCheck[] = [];
  let fullRetrieves = 0;
  let fullRetrieveErrors = 0;
  let fullRetrievePaged = 0;
  const fullRetrieve: ModeResult["fullRetrieve"] = [];
  const env = await hostEnv(home, "http://127.0.0.1:9", { PATH: path });
  /** The original behind a handle, from the store the install's hook and proxy wrote. */
  const stored = (h: string): Buffer | undefined => {
    const r = spawnSync(process.execPath, [BUNDLE, "retrieve", h], {
      env,
      maxBuffer: 64 << 20,
      timeout: 120_000,
    });
    return r.status === 0 ? r.stdout : undefined;
  };
  calls.forEach((c, i) => {
    const h = handleIn(got.get(callId(i))?.text ?? "");
    const score = scores[i];
    if (h && score && c.original)
      score.exact = Buffer.compare(stored(h) ?? Buffer.alloc(0), c.original) === 0;
  });
  calls.forEach((c, i) => {
    if (!c.shim || c.shim.exit === 0 || tokens(c.shim.output.toString("utf8")) < FLOOR_TOKENS) return;
    const text = got.get(callId(i))?.text ?? "";
    const h = handleIn(text);
    let byteExact: boolean | undefined;
    if (h) {
      const r = spawnSync(process.execPath, [BUNDLE, "retrieve", h], {
        env,
        encoding: "buffer",
        timeout: 120_000,
      });
      byteExact = r.status === 0 && Buffer.compare(r.stdout, c.shim.output) === 0;
    }
    failing.push({
      id: c.id,
      exit: c.shim.exit,
      bytes: c.shim.output.length,
      compressed: h !== undefined && tokens(text) < tokens(c.shim.output.toString("utf8")),
      handle: h !== undefined,
      byteExact,
    });
  });
  for (const [t, steps] of plans)
    steps.forEach((s, k) => {
      if (s.kind !== "full") return;
      fullRetrieves++;
      const r = got.get(`t${t}_${k}`);
      const error = !r || r.isError || /^Error: /m.test(r.text.slice(0, 200));
      if (error) fullRetrieveErrors++;
      const pages = Number(/page 1 of (\d+)/.exec(r?.text ?? "")?.[1] ?? 1);
      if (pages > 1) fullRetrievePaged++;
      fullRetrieve.push({ id: calls[s.call]?.id ?? "", tokens: tokens(r?.text ?? ""), pages, error });
    });
  const toolSearch = got.get("t0_0");
  if (!options.keep) rmSync(ws.base, { recursive: true, force: true });
  return {
    mode,
    calls: scores,
    failing,
    fullRetrieves,
    fullRetrieveErrors,
    fullRetrievePaged,
    fullRetrieve,
    schemaTokens,
    toolSearchTokens: tokens(toolSearch?.text ?? ""),
    hookRuns: runs.length,
    hookRunsP50: median(runs.map((r) => r.ms)),
    dir: ws.base,
    exit: result.code,
    ms: result.ms,
    scriptErrors: fake.scriptErrors,
    ...(installed ? { install: installed } : {}),
  };
}

/**
 * A call is the only block of its turn: our hook runs that finished between its request and the
 * next are its own (their times summed; the verdict of the PostToolUse run, else any).
 */
function attachHooks(
  scores: CallScore[],
  callAt: Map<number, string>,
  asked: Map<number, number>,
  runs: HookRun[],
): void {
  for (const [i, id] of callAt) {
    const n = Number(/^t(\d+)_/.exec(id)?.[1]);
    const from = asked.get(n) ?? Number.POSITIVE_INFINITY;
    const to = asked.get(n + 1) ?? Number.POSITIVE_INFINITY;
    const mine = runs.filter((r) => r.at >= from && r.at <= to);
    const score = scores[i];
    if (mine.length === 0 || !score) continue;
    const post = mine.find((r) => r.event === "PostToolUse" && r.verdict) ?? mine.find((r) => r.verdict);
    score.verdict = post?.verdict ?? mine.map((r) => r.event).join("+");
    score.hookMs = mine.reduce((sum, r) => sum + r.ms, 0);
  }
}
