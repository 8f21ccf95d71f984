import { describe, expect, it } from "vitest";
import { defaultChipDir } from "./defaultDir.js";

describe("default chip directory", () => {
  const base = { homedir: "/home/u", tmpdir: "/tmp" };
  it.each([
    [{ xdgCacheHome: "/xdg" }, "linux", "/xdg/caveman-mcp/chips"],
    [{}, "linux", "/home/u/.cache/caveman-mcp/chips"],
    [{ xdgCacheHome: "relative/path" }, "darwin", "/home/u/.cache/caveman-mcp/chips"],
    [{ xdgCacheHome: "  " }, "linux", "/home/u/.cache/caveman-mcp/chips"],
  ])("options %j on %s give %s", (opts, platform, want) => {
    expect(defaultChipDir({ ...opts, platform, ...base })).toBe(want);
  });

  it("uses the local app data directory on Windows", () => {
    const got = defaultChipDir({
      localAppData: "C:\\Users\\u\\AppData\\Local",
      platform: "win32",
      homedir: "C:\\Users\\u",
      tmpdir: "C:\\Temp",
    });
    expect(got).toBe("C:\\Users\\u\\AppData\\Local\\caveman-mcp\\chips");
  });

  it("falls back to the temp dir when there is no home", () => {
    expect(defaultChipDir({ platform: "linux", homedir: "", tmpdir: "/tmp" })).toBe("/tmp/caveman-mcp/chips");
  });
});
