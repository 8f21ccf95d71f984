import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { TransportFaultCode } from "../errors.js";
import { fault, lineTooLarge } from "./faults.js";

describe("transport faults", () => {
  const all: Record<TransportFaultCode, number> = {
    cave_payload_too_large: -32600,
    cave_overloaded: -32002,
    cave_internal_error: -32603,
    cave_shutting_down: -32603,
    cave_upstream_gone: -32603,
  };

  it.each(Object.entries(all))(
    "writes %s once: the text starts with it, data.code repeats it, code %i",
    (code, rpc) => {
      const reply = fault(7, code as TransportFaultCode, "what happened", { extra: 1 });
      expect(reply).toEqual({
        jsonrpc: "2.0",
        id: 7,
        error: { code: rpc, message: `${code}: what happened`, data: { code, extra: 1 } },
      });
    },
  );

  it("never answers with a number the SDK gives another meaning (-32001 is its RequestTimeout)", () => {
    const sdkMeanings = new Set<number>([
      ErrorCode.RequestTimeout,
      ErrorCode.ConnectionClosed,
      ErrorCode.UrlElicitationRequired,
    ]);
    for (const rpc of Object.values(all)) expect(sdkMeanings.has(rpc)).toBe(false);
  });

  it("answers an oversized line to the id sniffed from its ends, with its size", () => {
    const frame = { kind: "oversized" as const, length: 5000, head: '{"jsonrpc":"2.0","id":12,', tail: "}" };
    expect(lineTooLarge(frame)).toMatchObject({
      id: 12,
      error: { code: -32600, data: { code: "cave_payload_too_large", bytes: 5000 } },
    });
  });
});
