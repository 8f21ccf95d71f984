import { describe, expect, it } from "vitest";
import { limitLogger } from "./logLimit.js";

function sink() {
  const lines: string[] = [];
  const log = (m: string) => lines.push(m);
  return { lines, logger: { info: log, warn: log, error: log } };
}

describe("limitLogger", () => {
  it("cuts long messages and says how much was cut", () => {
    const { lines, logger } = sink();
    limitLogger(logger, { maxChars: 10 }).warn("x".repeat(25));
    expect(lines).toEqual([`${"x".repeat(10)} [… 15 more characters]`]);
  });

  it("passes a burst, then suppresses and counts until tokens refill", () => {
    let t = 0;
    const { lines, logger } = sink();
    const limited = limitLogger(logger, { burst: 3, perSecond: 1, now: () => t });
    for (let i = 0; i < 100; i++) limited.warn(`m${i}`);
    expect(lines).toEqual(["m0", "m1", "m2"]);
    t += 1000;
    limited.warn("later");
    expect(lines[3]).toBe("(97 similar message(s) suppressed) later");
  });
});
