import { describe, expect, it } from "vitest";
import { FAKE_CLOCK_START, fakeClock } from "./clock.js";

describe("fakeClock", () => {
  it("reads the same through the call and now()", () => {
    const clock = fakeClock();
    expect(clock()).toBe(FAKE_CLOCK_START);
    expect(clock.now()).toBe(FAKE_CLOCK_START);
  });
  it("moves only when told", () => {
    const clock = fakeClock(1000);
    clock.advance(250);
    expect(clock()).toBe(1250);
    clock.advance(-50);
    expect(clock.now()).toBe(1200);
    clock.set(5);
    expect(clock()).toBe(5);
  });
  it("keeps separate time per clock, and works detached", () => {
    const a = fakeClock(0);
    const b = fakeClock(0);
    const { now } = a;
    a.advance(10);
    expect(now()).toBe(10);
    expect(b()).toBe(0);
  });
});
