import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { openChipStore } from "./store.js";

describe("replay of a failure chip", () => {
  const args = {
    path: "src/app.ts",
    content: 'export const greeting = "hello\\nworld";\n'.repeat(3),
    options: { mode: "overwrite", note: "short" },
  };

  it("gives the field holding the largest string by default, raw not JSON-escaped", () => {
    const store = openChipStore({ dir: tempDir() });
    const { chip } = store.saveFailure({ tool: "be-write", args, errMsg: "bad" });
    expect(store.replay(chip!.id)).toBe(args.content);
  });

  it("gives a named field, nested fields by dotted path, or the whole args as JSON", () => {
    const store = openChipStore({ dir: tempDir() });
    const id = store.saveFailure({ tool: "be-write", args }).chip!.id;
    expect(store.replay(id, { field: "path" })).toBe("src/app.ts");
    expect(store.replay(id, { field: "options.mode" })).toBe("overwrite");
    expect(store.replay(id, { field: "options" })).toBe(JSON.stringify(args.options, null, 2));
    expect(JSON.parse(store.replay(id, { wholeArgs: true }))).toEqual(args);
  });

  it("names the fields that exist when the requested one does not", () => {
    const store = openChipStore({ dir: tempDir() });
    const id = store.saveFailure({ tool: "be-write", args }).chip!.id;
    expect(() => store.replay(id, { field: "contents" })).toThrowError(
      /top-level fields: path, content, options/,
    );
  });

  it("adds the Go-style comment header only when asked", () => {
    const store = openChipStore({ dir: tempDir() });
    const id = store.saveFailure({ tool: "be-write", args }).chip!.id;
    expect(store.replay(id, { header: true })).toMatch(new RegExp(`^# chip://${id} from be-write at .*\\n`));
    expect(store.replay(id).startsWith("#")).toBe(false);
  });

  it("replays a raw string argument (a line that was not valid JSON) as it was", () => {
    const store = openChipStore({ dir: tempDir() });
    const raw =
      '{"jsonrpc":"2.0","method":"tools/call","params":{"name":"be-write","arguments":{"content":"\\q"}}';
    const id = store.saveFailure({ tool: "tools/call", args: raw }).chip!.id;
    expect(store.replay(id)).toBe(raw);
  });

  it("finds the largest string inside arrays (batch edits)", () => {
    const store = openChipStore({ dir: tempDir() });
    const batch = { edits: [{ content: "small" }, { content: "the largest piece of content in here" }] };
    const id = store.saveFailure({ tool: "be-replace", args: batch }).chip!.id;
    expect(store.replay(id)).toBe("the largest piece of content in here");
  });
});
