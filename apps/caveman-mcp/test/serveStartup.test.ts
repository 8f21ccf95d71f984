// What the server loads before it can list its tools: neither the engine (with the tokenizer),
// nor the Redis client when no team store is configured (seen in a trace of every module the
// process and its workers load). Each trace is checked against a later step that does load the
// module, so the trace is known to see it.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connect, handleIn, type Sandbox, sandbox } from "./helpers.js";
import { logText } from "./hookSamples.js";
import { loadedFiles, tracer } from "./trace.js";

const TRACER = tracer();

/** A traced server: its client, and what it has loaded so far. */
async function tracedServer(box: Sandbox, args: string[]) {
  const trace = join(box.base, "trace.txt");
  writeFileSync(trace, "");
  box.env.TRACE_FILE = trace;
  const { client } = await connect(box, args, ["--import", TRACER]);
  const loaded = () => loadedFiles(trace);
  return { client, loaded };
}

/** The loaded files that hold the engine (with the tokenizer). */
const engine = (files: string[]) =>
  files.filter((f) =>
    /packages\/engine\/dist|node_modules\/\.pnpm\/gpt-tokenizer/.test(readFileSync(f, "utf8")),
  );
/** The loaded files that hold the Redis client. */
const redis = (files: string[]) =>
  files.filter((f) => /node_modules\/\.pnpm\/ioredis@/.test(readFileSync(f, "utf8")));

describe("server start-up: list the tools before loading the engine", () => {
  it("answers tools/list without the engine or the Redis client; the first compress loads the engine", async () => {
    const box = sandbox();
    const { client, loaded } = await tracedServer(box, ["--ephemeral"]);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("caveman_compress");
      expect(engine(loaded())).toEqual([]);
      expect(redis(loaded())).toEqual([]);
      // Over the inline limit, so it runs in an engine worker.
      const compressed = await client.callTool({ name: "caveman_compress", arguments: { input: logText() } });
      expect(handleIn(compressed)).toMatch(/^ccr_/);
      expect(engine(loaded()).length).toBeGreaterThan(0);
      expect(redis(loaded())).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("loads the Redis client once a team store is configured, and still starts when it is away", async () => {
    const box = sandbox();
    // Nothing listens on port 1: the link stays down, and the server serves on its local store.
    const { client, loaded } = await tracedServer(box, ["--ephemeral", "--ccr-url", "redis://127.0.0.1:1"]);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain("caveman_retrieve");
      await expect.poll(() => redis(loaded()).length, { timeout: 30_000 }).toBeGreaterThan(0);
      expect(engine(loaded())).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
