import { describe, expect, it } from "vitest";
import { countTokens } from "../../tokens.js";
import { compressDiagnostics } from "./diagnostics.js";

const at = (n: number) => `lib/request.js(${100 + n},${20 + (n % 3)}): error TS1003`;

describe("repeated diagnostic messages", () => {
  it("leaves short repeated messages whole when a marker would cost more than it cuts", () => {
    const text = Array.from({ length: 5 }, (_, n) => `${at(n)}: Identifier expected.`).join("\n");
    const res = compressDiagnostics(text, {});
    // Nothing else to drop and no shortening that pays: every line stays as it was.
    expect(typeof res === "string" ? text : res.output).toBe(text);
  });

  it("shortens long repeated messages behind a marker that costs less than it cuts", () => {
    const message =
      "Property 'sendFileWithOptionsAndCallback' does not exist on type 'ServerResponse<IncomingMessage>' and no overload matches this call.";
    const text = Array.from({ length: 12 }, (_, n) => `${at(n)}: ${message}`).join("\n");
    const res = compressDiagnostics(text, {});
    if (typeof res === "string") throw new Error(res);
    const lines = res.output.split("\n");
    const marker = lines.find((l) => l.startsWith("[caveman:"))!;
    expect(marker).toContain("of the lines above");
    expect(lines).toContain(at(11));
    const cut = countTokens(text) - countTokens(lines.filter((l) => l !== marker).join("\n"));
    expect(countTokens(marker)).toBeLessThan(cut);
  });

  it("tells messages apart by their quoted names: a message seen once stays whole among repeats of a similar one", () => {
    const set = (n: number) => `${at(n)}: Property 'set' does not exist on type 'defaultConfiguration'.`;
    const once = `${at(20)}: Property 'settings' does not exist on type 'defaultConfiguration'.`;
    const text = [
      ...Array.from({ length: 5 }, (_, n) => set(n)),
      once,
      ...Array.from({ length: 5 }, (_, n) => set(n + 5)),
    ].join("\n");
    const res = compressDiagnostics(text, {});
    const output = typeof res === "string" ? text : res.output;
    expect(output.split("\n")).toContain(once);
  });
});
