import { describe, expect, it } from "vitest";
import {
  judgeRequest,
  META_CLIENT_CAPABILITIES,
  META_PROTOCOL_VERSION,
  UNSUPPORTED_PROTOCOL_VERSION,
} from "./era.js";

const discover = () => ({ supportedVersions: ["2026-07-28"] });
const envelope = (version: unknown, caps: unknown = {}) => ({
  _meta: { [META_PROTOCOL_VERSION]: version, [META_CLIENT_CAPABILITIES]: caps },
});

describe("judgeRequest: one request, judged by its own envelope", () => {
  it("passes requests without the version claim to the legacy era, except server/discover", () => {
    expect(judgeRequest("tools/list", undefined, discover)).toEqual({ kind: "legacy" });
    expect(judgeRequest("ping", { _meta: { progressToken: 1 } }, discover)).toEqual({ kind: "legacy" });
    expect(judgeRequest("server/discover", {}, discover)).toMatchObject({
      kind: "error",
      code: UNSUPPORTED_PROTOCOL_VERSION,
      data: { supported: ["2026-07-28"] },
    });
  });

  it("serves tools/list, tools/call and server/discover in the modern era", () => {
    expect(judgeRequest("tools/call", envelope("2026-07-28"), discover)).toEqual({ kind: "modern" });
    expect(judgeRequest("server/discover", envelope("2026-07-28"), discover)).toEqual({
      kind: "answer",
      result: discover(),
    });
  });

  it("answers a bad envelope before anything else: version, then capabilities, then method", () => {
    expect(judgeRequest("ping", envelope("2025-11-25"), discover)).toMatchObject({
      code: UNSUPPORTED_PROTOCOL_VERSION,
      data: { supported: ["2026-07-28"], requested: "2025-11-25" },
    });
    expect(judgeRequest("tools/list", envelope("2026-07-28", []), discover)).toMatchObject({ code: -32602 });
    expect(judgeRequest("ping", envelope("2026-07-28"), discover)).toMatchObject({ code: -32601 });
  });
});

describe("judgeRequest: what the client sent is never echoed unbounded", () => {
  it("cuts a huge requested version and a huge method name in -32022 and -32601 answers", () => {
    const huge = "9".repeat(1 << 20);
    const version = judgeRequest("tools/list", envelope(huge), discover);
    expect(version).toMatchObject({ code: UNSUPPORTED_PROTOCOL_VERSION });
    expect(JSON.stringify(version).length).toBeLessThan(1000);
    expect(version).toMatchObject({ data: { requested: expect.stringMatching(/^9{20,}…$/) } });
    const method = judgeRequest(`x/${huge}`, envelope("2026-07-28"), discover);
    expect(method).toMatchObject({ code: -32601 });
    expect(JSON.stringify(method).length).toBeLessThan(1000);
  });
});
