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

  it("past the distinct-query limit, may return the full original, then points to it", () => {
    const s = new Session();
    for (let i = 0; i < DISTINCT_RETRIEVE_LIMIT; i++) {
      expect(s.planRetrieve("h", `q${i}`).kind).toBe("narrow");
      s.recordRetrieve("h", `q${i}`, false, 1, `o${i}`);
    }
    expect(s.planRetrieve("h", "another")).toEqual({ kind: "full_if_small" });
    s.recordRetrieve("h", "another", true, 100, "full");
    expect(s.planRetrieve("h", "yet another")).toEqual({
      kind: "already_full",
      callNo: DISTINCT_RETRIEVE_LIMIT + 1,
    });
  });

  it("does not count pages (of the original or of a search) as distinct queries", () => {
    const s = new Session();
    for (let i = 0; i < DISTINCT_RETRIEVE_LIMIT - 1; i++) s.recordRetrieve("h", `q${i}`, false, 1, `o${i}`);
    for (let p = 2; p < 20; p++) {
      expect(s.planRetrieve("h", `q0 page:${p}`).kind).toBe("narrow");
      s.recordRetrieve("h", `q0 page:${p}`, false, 1, `p${p}`);
      expect(s.planRetrieve("h", `page:${p}`).kind).toBe("narrow");
      s.recordRetrieve("h", `page:${p}`, false, 1, `f${p}`);
    }
    expect(s.planRetrieve("h", "q9").kind).toBe("narrow");
    // After the first queries, page:2 of each kind, then "q0 page:3", then "page:3".
    expect(s.planRetrieve("h", "page:3")).toEqual({
      kind: "repeat",
      callNo: DISTINCT_RETRIEVE_LIMIT - 1 + 4,
    });
  });

  it("plans the empty query as the full original, and a page of it does not stop later queries", () => {
    const s = new Session();
    expect(s.planRetrieve("h", "")).toEqual({ kind: "full" });
    s.recordRetrieve("h", "", false, 16_000, "page1");
    expect(s.planRetrieve("h", "")).toEqual({ kind: "repeat", callNo: 1 });
    expect(s.planRetrieve("h", "error")).toEqual({ kind: "narrow" });
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
