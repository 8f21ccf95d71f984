import { CcrStoreError } from "@caveman/ccr-store";
import { ChipStoreError } from "@caveman/chip-store";
import { EditError } from "@caveman/edit-ops";
import { describe, expect, it } from "vitest";
import { McpServerError } from "../errors.js";
import { toWireError } from "./errorMap.js";

describe("toWireError", () => {
  it("prefixes library codes by family and drops a duplicated code from the message", () => {
    expect(toWireError(new EditError("out_of_range", "line 90 is past the end (file has 41 lines)"))).toEqual(
      {
        code: "be_out_of_range",
        message: "line 90 is past the end (file has 41 lines)",
      },
    );
    expect(toWireError(new ChipStoreError("chip_not_found", "no chip abc123"))).toEqual({
      code: "be_chip_not_found",
      message: "no chip abc123",
    });
    expect(toWireError(new CcrStoreError("store_full", "budget reached"))?.code).toBe("cave_store_full");
    expect(toWireError(new McpServerError("cave_unknown_handle", "x"))).toEqual({
      code: "cave_unknown_handle",
      message: "x",
    });
  });

  it("leaves anything else to be reported as a panic", () => {
    expect(toWireError(new TypeError("boom"))).toBeUndefined();
    expect(toWireError("string")).toBeUndefined();
  });
});
