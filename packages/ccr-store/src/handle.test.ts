// The handle grammar: content addressing, and a parser fuzzed against a reference grammar.
import { createHash } from "node:crypto";
import { propertyParams } from "@caveman/test-kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CcrStoreError } from "./errors.js";
import { computeHandle, isCanonicalHandle, parseHandle, prepareOriginal, requireHandle } from "./handle.js";

const HEX = "0123456789abcdef";
const hex32 = fc.string({ unit: fc.constantFrom(...HEX), minLength: 32, maxLength: 32 });
const FORMS = [
  (h: string) => `ccr_${h}`,
  (h: string) => `ccr:${h}`,
  (h: string) => `ccr://${h}`,
  (h: string) => `<<ccr:${h}>>`,
];
const space = fc.string({
  unit: fc.constantFrom(" ", "\t", "\n", "\r", "\u00a0", "\u2003", "\ufeff"),
  maxLength: 3,
});
const layer = fc.record({ quote: fc.constantFrom('"', "'", "`", "```"), inner: space, outer: space });
/** A legal spelling: a form, then any stack of matched quote/backtick layers with whitespace. */
const legal = fc
  .record({
    hex: hex32,
    form: fc.nat(FORMS.length - 1),
    layers: fc.array(layer, { maxLength: 3 }),
    ws: space,
  })
  .map(({ hex, form, layers, ws }) => {
    let s = FORMS[form]!(hex);
    for (const l of layers) s = `${l.outer}${l.quote}${l.inner}${s}${l.inner}${l.quote}${l.outer}`;
    return { hex, spelling: `${ws}${s}${ws}` };
  });

/** Reference grammar written independently of the implementation, for random strings. */
function oracle(s: string): string | null {
  if (s.length > 256) return null;
  let t = s.trim();
  for (let m = /^(["'`])([\s\S]*)\1$/.exec(t); m && t.length >= 2; m = /^(["'`])([\s\S]*)\1$/.exec(t)) {
    t = m[2]!.trim();
  }
  const m = /^(?:ccr_|ccr:\/\/|ccr:|<<ccr:)([0-9a-f]{32})$/.exec(t) ?? /^<<ccr:([0-9a-f]{32})>>$/.exec(t);
  if (!m) return null;
  if (t.startsWith("<<") !== t.endsWith(">>")) return null;
  return `ccr_${m[1]}`;
}

describe("prepareOriginal", () => {
  it("encodes and hashes once: the bytes, their full SHA-256 and the handle agree with computeHandle", () => {
    const p = prepareOriginal("héllo");
    expect(Buffer.from(p.bytes).toString("utf8")).toBe("héllo");
    expect(p.sha256).toBe(createHash("sha256").update("héllo", "utf8").digest("hex"));
    expect(p.handle).toBe(computeHandle("héllo"));
    expect(Object.isFrozen(p)).toBe(true);
    expect(() => prepareOriginal("\ud800")).toThrow(/invalid_original/);
  });
});

describe("prepareOriginal of a string", () => {
  it("holds no encoded copy while the caller works (the engine runs in between), and encodes the same bytes when a store reads them", () => {
    const text = "a long tool output\n".repeat(2 * 1024 * 1024); // 38 MiB
    const before = process.memoryUsage().arrayBuffers;
    const p = prepareOriginal(text);
    const held = process.memoryUsage().arrayBuffers - before;
    // Eagerly encoded, the prepared value would pin a second copy of the input (38 MiB here).
    expect(held).toBeLessThan(1024 * 1024);
    expect(p.handle).toBe(computeHandle(text));
    expect(p.bytes.byteLength).toBe(Buffer.byteLength(text, "utf8"));
    expect(createHash("sha256").update(p.bytes).digest("hex")).toBe(p.sha256);
    expect(p.bytes).toBe(p.bytes); // encoded once, then kept for the stores that share it
  });
});

describe("computeHandle", () => {
  it("is ccr_ plus the first 32 hex digits of the SHA-256 of the bytes", () => {
    expect(computeHandle("")).toBe("ccr_e3b0c44298fc1c149afbf4c8996fb924");
    expect(computeHandle("hello")).toBe("ccr_2cf24dba5fb0a30e26e83b2ac5b9e29e");
    const bytes = new Uint8Array([0, 255, 128, 10]);
    const sha = createHash("sha256").update(bytes).digest("hex");
    expect(computeHandle(bytes)).toBe(`ccr_${sha.slice(0, 32)}`);
  });

  it("gives a string and its UTF-8 bytes the same handle", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (s) => {
        expect(computeHandle(s)).toBe(computeHandle(new TextEncoder().encode(s)));
      }),
      propertyParams(),
    );
  });

  it("refuses a string with a lone surrogate instead of hashing altered bytes", () => {
    expect(() => computeHandle("a\ud800b")).toThrow(CcrStoreError);
    expect(() => computeHandle("\udc00")).toThrow(/invalid_original/);
    expect(computeHandle("\ud83d\ude00")).toBe(computeHandle(new Uint8Array([0xf0, 0x9f, 0x98, 0x80])));
  });

  it("refuses values that are neither strings nor bytes", () => {
    for (const bad of [null, undefined, 42, {}, [1, 2], new ArrayBuffer(2)]) {
      expect(() => computeHandle(bad as unknown as string)).toThrow(/invalid_original/);
    }
  });
});

describe("parseHandle", () => {
  it("accepts every legal spelling and returns the canonical handle", () => {
    fc.assert(
      fc.property(legal, ({ hex, spelling }) => {
        expect(parseHandle(spelling)).toBe(`ccr_${hex}`);
      }),
      propertyParams(2000),
    );
  });

  it("accepts the spellings the server shows, as written", () => {
    const h = "0123456789abcdef0123456789abcdef";
    for (const s of [
      `ccr_${h}`,
      `ccr:${h}`,
      `ccr://${h}`,
      `<<ccr:${h}>>`,
      ` "ccr_${h}" `,
      `\`ccr:${h}\``,
      `'<<ccr:${h}>>'\n`,
    ]) {
      expect(parseHandle(s)).toBe(`ccr_${h}`);
    }
  });

  it("rejects near misses", () => {
    const h = "0123456789abcdef0123456789abcdef";
    const misses = [
      `ccr_${h.toUpperCase()}`,
      `CCR_${h}`,
      `ccr_${h.slice(1)}`,
      `ccr_${h}0`,
      `ccr-${h}`,
      `ccr::${h}`,
      `ccr:/${h}`,
      `ccr:///${h}`,
      `<ccr:${h}>`,
      `<<ccr_${h}>>`,
      `<<ccr:${h}>`,
      `<<ccr://${h}>>`,
      `"ccr_${h}'`,
      `"ccr_${h}`,
      `ccr_${h}"`,
      `x ccr_${h}`,
      `ccr_${h}.`,
      `ccr_ ${h}`,
      `chip://${h}`,
      `${h}`,
      "",
      "ccr_",
      '""',
    ];
    for (const s of misses) expect(parseHandle(s), s).toBeNull();
  });

  it("rejects any legal spelling with junk added outside or a hex digit broken", () => {
    const junk = fc
      .string({ minLength: 1, maxLength: 4 })
      .filter((j) => j.trim().length > 0 && !/^["'`]+$/.test(j));
    fc.assert(
      fc.property(legal, junk, fc.boolean(), ({ spelling }, j, before) => {
        const s = before ? `${j}${spelling}` : `${spelling}${j}`;
        expect(parseHandle(s)).toBe(oracle(s));
      }),
      propertyParams(2000),
    );
    fc.assert(
      fc.property(hex32, fc.nat(31), fc.constantFrom("g", "A", "F", " ", "_", "-", "é"), (hex, i, c) => {
        const broken = hex.slice(0, i) + c + hex.slice(i + 1);
        expect(parseHandle(`ccr_${broken}`)).toBeNull();
        expect(parseHandle(`<<ccr:${broken}>>`)).toBeNull();
      }),
      propertyParams(),
    );
  });

  it("agrees with the reference grammar on arbitrary text and never throws", () => {
    const nearHandle = fc
      .tuple(
        fc.constantFrom("", " ", '"', "'", "`", "<<", ">>", "ccr", "ccr_", "ccr:", "ccr://"),
        hex32,
        fc.string(),
      )
      .map(([p, h, tail]) => `${p}${h}${tail}`);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "binary" }), nearHandle), (s) => {
        expect(parseHandle(s)).toBe(oracle(s));
      }),
      propertyParams(5000),
    );
  });

  it("returns null for non-strings and oversized text", () => {
    fc.assert(
      fc.property(
        fc.anything().filter((v) => typeof v !== "string"),
        (v) => {
          expect(parseHandle(v)).toBeNull();
        },
      ),
      propertyParams(),
    );
    expect(parseHandle(`${" ".repeat(300)}ccr_0123456789abcdef0123456789abcdef`)).toBeNull();
    expect(parseHandle("`".repeat(1_000_000))).toBeNull();
  });
});

describe("requireHandle and isCanonicalHandle", () => {
  it("normalises a spelling or throws invalid_handle naming the accepted forms", () => {
    const h = "ccr_0123456789abcdef0123456789abcdef";
    expect(requireHandle(`<<ccr:${h.slice(4)}>>`)).toBe(h);
    expect(() => requireHandle("ccr_nothex")).toThrow(/invalid_handle: "ccr_nothex" is not a CCR handle/);
    expect(isCanonicalHandle(h)).toBe(true);
    expect(isCanonicalHandle(` ${h}`)).toBe(false);
    expect(isCanonicalHandle(`ccr:${h.slice(4)}`)).toBe(false);
  });
});
