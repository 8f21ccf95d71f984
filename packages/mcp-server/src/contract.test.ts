import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { structuredReading, textReading } from "./contract.js";
import type { Logger } from "./logger.js";
import { silentLogger } from "./logger.js";
import { defineTool, ToolRegistry, type ToolSpec } from "./registry.js";
import { realStores } from "./testing.test-helpers.js";

const signal = new AbortController().signal;
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true };

function registryOf(tools: ToolSpec[], logger: Logger = silentLogger) {
  return new ToolRegistry({ tools, logger, maxResultBytes: 1 << 20 });
}

function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return { ...silentLogger, errors, error: (m: string) => void errors.push(m) };
}

describe("result contract", () => {
  it("sends a text tool's outcome as text blocks and never as structured content", async () => {
    const tool = defineTool({
      name: "echo",
      family: "compress",
      description: "echo",
      input: z.strictObject({ s: z.string() }),
      annotations: READ_ONLY,
      run: ({ s }) => ({ text: s, notes: ["[note]"] }),
    });
    const r = await registryOf([tool]).callTool("echo", { s: "payload" }, { signal });
    expect(r).toEqual({
      content: [
        { type: "text", text: "payload" },
        { type: "text", text: "[note]" },
      ],
    });
    expect(registryOf([tool]).listTools()[0]).not.toHaveProperty("outputSchema");
  });

  it("sends a data tool's whole object as structured content and as the JSON of its only text block", async () => {
    const tool = defineTool({
      name: "figures",
      family: "compress",
      description: "figures",
      input: z.strictObject({}),
      output: z.object({ calls: z.number() }),
      annotations: READ_ONLY,
      run: () => ({ data: { calls: 3, extra: { kept: true } } }),
    });
    const r = await registryOf([tool]).callTool("figures", {}, { signal });
    expect(r.structuredContent).toEqual({ calls: 3, extra: { kept: true } });
    expect(r.content).toEqual([{ type: "text", text: '{"calls":3,"extra":{"kept":true}}' }]);
    expect(registryOf([tool]).listTools()[0]?.outputSchema).toMatchObject({ type: "object" });
  });

  it("answers an outcome of the wrong kind, or data its schema rejects, as cave_tool_panicked and logs it", async () => {
    const textTool = {
      name: "liar",
      family: "compress",
      description: "x",
      input: z.strictObject({}),
      annotations: READ_ONLY,
      run: () => ({ text: "shown to some", data: { hidden: "from others" } }),
    } as unknown as ToolSpec;
    const dataTool = {
      name: "wordy",
      family: "compress",
      description: "x",
      input: z.strictObject({}),
      output: z.object({ n: z.number() }),
      annotations: READ_ONLY,
      run: () => ({ text: "not data" }),
    } as unknown as ToolSpec;
    const badData = defineTool({
      name: "drifted",
      family: "compress",
      description: "x",
      input: z.strictObject({}),
      output: z.object({ n: z.number() }),
      annotations: READ_ONLY,
      run: () => ({ data: { n: "three" } as unknown as { n: number } }),
    });
    const logger = recordingLogger();
    const reg = registryOf([textTool, dataTool, badData], logger);
    for (const name of ["liar", "wordy", "drifted"]) {
      const r = await reg.callTool(name, {}, { signal });
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toBeUndefined();
      expect(textReading(r)).toMatch(new RegExp(`^cave_tool_panicked: ${name} failed unexpectedly \\(`));
    }
    expect(logger.errors).toHaveLength(3);
  });

  it("refuses an output schema that is not an object, through defineTool and in the registry", () => {
    const spec = {
      name: "list",
      family: "compress",
      description: "x",
      input: z.strictObject({}),
      output: z.array(z.string()),
      annotations: READ_ONLY,
      run: () => ({ data: {} }),
    } as unknown as Parameters<typeof defineTool>[0];
    expect(() => defineTool(spec)).toThrow(/must be an object schema/);
    expect(() => registryOf([spec as unknown as ToolSpec])).toThrow(/must be an object schema/);
  });

  it("gives a text-only and a structured-only reader the same payload for every tool, on success and failure", async () => {
    const { root, tools } = realStores(["compress", "edit"]);
    writeFileSync(join(root, "a.txt"), "one\ntwo\nthree\n");
    const reg = registryOf(tools);
    const log = Array.from({ length: 300 }, (_, i) => `2026-01-01T00:00:${i % 60}Z INFO job ${i} ok`).join(
      "\n",
    );
    // Every registered tool needs a sample here: a new tool cannot skip this check.
    const samples: Record<string, Array<Record<string, unknown>>> = {
      caveman_compress: [{ input: log }, { input: "tiny" }, { input: 1 }],
      caveman_retrieve: [{ recovery_handle: "ccr_0123456789abcdef0123456789abcdef" }],
      caveman_stats: [{}, { verbose: true }],
      caveman_toon_encode: [{ input: '{"a":[1,2]}' }, { input: "{bad" }],
      caveman_toon_decode: [{ input: "a[2]: 1,2" }, { input: "a[3]: 1" }],
      "be-read": [{ path: "a.txt:2" }, { path: "a.txt", start_line: 9 }],
      "be-write": [
        { path: "b.txt", content: "b\n" },
        { path: "/etc/x", content: "x" },
      ],
      "be-insert": [
        { path: "a.txt", after_line: 0, content: "zero\n" },
        { path: "a.txt", after_line: 99, content: "x" },
      ],
      "be-replace": [
        { path: "a.txt", old: "two\n", content: "2\n" },
        { path: "a.txt", old: "nope", content: "x" },
      ],
      "be-delete": [{ path: "a.txt:1" }, { path: "a.txt:40" }],
      "be-insert-chip": [{}, { from: "chip://000000" }],
      "be-undo": [{ path: "a.txt" }, { path: "b.txt", expected_hash: "0".repeat(64) }],
      "be-batch": [
        { path: "a.txt", edits: [{ start_line: 1, content: "one" }] },
        { path: "a.txt", edits: [{ old: "no such text", content: "x" }] },
      ],
    };
    expect(Object.keys(samples).sort(), "add a sample call for every tool").toEqual([...reg.names].sort());
    const listed = new Map(reg.listTools().map((t) => [t.name, t]));
    let failures = 0;
    for (const [name, calls] of Object.entries(samples)) {
      const hasOutput = listed.get(name)?.outputSchema !== undefined;
      for (const args of calls) {
        const r: CallToolResult = await reg.callTool(name, args, { signal });
        expect(structuredReading(r), `${name} ${JSON.stringify(args)}`).toBe(textReading(r));
        expect(textReading(r).length, `${name} returned nothing`).toBeGreaterThan(0);
        // Only a tool that advertises an output schema sends structured content, and never on failure.
        expect(r.structuredContent !== undefined, `${name} structured`).toBe(hasOutput && !r.isError);
        if (r.isError) failures++;
      }
    }
    expect(failures).toBeGreaterThanOrEqual(11);
  });
});
