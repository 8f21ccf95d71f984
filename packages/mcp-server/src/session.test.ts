import { describe, expect, it } from "vitest";
import { DISTINCT_RETRIEVE_LIMIT, Session } from "./session.js";

describe("Session", () => {
  it("answers an identical (handle, query) with a pointer to the earlier retrieve", () => {
    const s = new Session();
    expect(s.planRetrieve("h", "err")).toEqual({ kind: "narrow" });
    s.recordRetrieve("h", "err", false, 10, "out1");
    expect(s.planRetrieve("h", "err")).toEqual({ kind: "repeat", callNo: 1 });
    expect(s.planRetrieve("other", "err")).toEqual({ kind: "narrow" });
  });

  it("returns the full original after the distinct-query limit, then points to it", () => {
    const s = new Session();
    for (let i = 0; i < DISTINCT_RETRIEVE_LIMIT; i++) {
      expect(s.planRetrieve("h", `q${i}`).kind).toBe("narrow");
      s.recordRetrieve("h", `q${i}`, false, 1, `o${i}`);
    }
    expect(s.planRetrieve("h", "another")).toEqual({ kind: "full", forced: true });
    s.recordRetrieve("h", "another", true, 100, "full");
    expect(s.planRetrieve("h", "yet another")).toEqual({
      kind: "already_full",
      callNo: DISTINCT_RETRIEVE_LIMIT + 1,
    });
  });

  it("counts saved tokens net of what retrieves gave back", () => {
    const s = new Session();
    s.recordCompress("json", 1000, 200);
    s.recordCompress("text", 50, 50, "below_floor");
    s.recordRetrieve("h", "", true, 300, "x");
    expect(s.stats()).toMatchObject({
      basis: "inferred",
      scope: "session",
      calls: 2,
      compressed: 1,
      passed_through: 1,
      tokens_in: 1050,
      tokens_out: 250,
      retrieved_tokens: 300,
      saved_tokens_net: 500,
      pass_reasons: { below_floor: 1 },
    });
    expect(s.isRetrievedOutput("x")).toBe(true);
    expect(s.isRetrievedOutput("y")).toBe(false);
  });
});
