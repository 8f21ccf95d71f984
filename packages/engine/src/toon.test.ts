import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { toonDecode, toonEncode } from "./toon.js";

// The TOON specification's own conformance fixtures (MIT, see __fixtures__/toon-spec/LICENSE),
// vendored so that a clone anywhere can run them.
const specDir = new URL("./__fixtures__/toon-spec/fixtures/", import.meta.url);

interface Fixture {
  tests: Array<{
    name: string;
    input: unknown;
    expected: unknown;
    shouldError?: boolean;
    options?: Record<string, unknown>;
    note?: string;
  }>;
}

function load(category: "encode" | "decode"): Array<[string, Fixture]> {
  const dir = new URL(`${category}/`, specDir);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => [f, JSON.parse(readFileSync(new URL(f, dir), "utf8")) as Fixture]);
}

describe("TOON spec fixtures: encode", () => {
  for (const [file, fixture] of load("encode")) {
    for (const t of fixture.tests) {
      it(`${file}: ${t.name}`, () => {
        const result = toonEncode(JSON.stringify(t.input), t.options ?? {});
        if (t.shouldError) {
          expect(result.ok).toBe(false);
          return;
        }
        expect(result).toMatchObject({ ok: true, output: t.expected });
      });
    }
  }
});

describe("TOON spec fixtures: decode", () => {
  for (const [file, fixture] of load("decode")) {
    for (const t of fixture.tests) {
      it(`${file}: ${t.name}`, () => {
        const result = toonDecode(t.input as string, t.options ?? {});
        if (t.shouldError) {
          expect(result).toMatchObject({ ok: false, code: "cave_toon_invalid" });
          return;
        }
        // The spec lets a non-strict decoder reject malformed headers instead of falling through
        // to a literal key ("optional leniency"); @toon-format/toon rejects them, with a typed error.
        if (!result.ok && t.options?.strict === false && /fall-through/.test(t.note ?? "")) {
          expect(result.code).toBe("cave_toon_invalid");
          return;
        }
        expect(result.ok).toBe(true);
        if (result.ok) expect(JSON.parse(result.output)).toEqual(t.expected);
      });
    }
  }
});

describe("toonEncode / toonDecode", () => {
  it("reports byte and token sizes of both sides", () => {
    const json = JSON.stringify({
      users: [
        { id: 1, name: "Ada" },
        { id: 2, name: "Linus" },
      ],
    });
    const enc = toonEncode(json);
    expect(enc).toMatchObject({ ok: true, bytesIn: Buffer.byteLength(json) });
    if (!enc.ok) return;
    expect(enc.output).toBe("users[2]{id,name}:\n  1,Ada\n  2,Linus");
    expect(enc.bytesOut).toBe(Buffer.byteLength(enc.output));
    expect(enc.tokensOut).toBeLessThan(enc.tokensIn);
    const dec = toonDecode(enc.output);
    expect(dec.ok && JSON.parse(dec.output)).toEqual(JSON.parse(json));
  });

  it("rejects invalid JSON with cave_json_invalid instead of throwing", () => {
    expect(toonEncode("{not json")).toMatchObject({ ok: false, code: "cave_json_invalid" });
    expect(toonEncode("")).toMatchObject({ ok: false, code: "cave_json_invalid" });
  });

  it("rejects TOON whose declared length disagrees, strictly, never passing the input off as JSON", () => {
    const result = toonDecode("tags[3]: a,b");
    expect(result).toMatchObject({ ok: false, code: "cave_toon_invalid" });
    expect(result.ok ? "" : result.message).toMatch(/TOON/);
  });
});
