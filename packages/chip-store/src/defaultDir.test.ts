import { describe, expect, it } from "vitest";
import { defaultChipDir } from "./defaultDir.js";

describe("default chip directory", () => {
  const base = { homedir: "/home/u", tmpdir: "/tmp" };
  it.each([
    [{ XDG_CACHE_HOME: "/xdg" }, "linux", "/xdg/caveman-mcp/chips"],
    [{}, "linux", "/home/u/.cache/caveman-mcp/chips"],
    [{ XDG_CACHE_HOME: "relative/path" }, "darwin", "/home/u/.cache/caveman-mcp/chips"],
    [{ XDG_CACHE_HOME: "  " }, "linux", "/home/u/.cache/caveman-mcp/chips"],
  ])("env %j on %s gives %s", (env, platform, want) => {
    expect(defaultChipDir({ env, platform, ...base })).toBe(want);
  });

  it("uses LOCALAPPDATA on Windows", () => {
    const got = defaultChipDir({
      env: { LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" },
      platform: "win32",
      homedir: "C:\\Users\\u",
      tmpdir: "C:\\Temp",
    });
    expect(got).toBe("C:\\Users\\u\\AppData\\Local\\caveman-mcp\\chips");
  });

  it("falls back to the temp dir when there is no home", () => {
    expect(defaultChipDir({ env: {}, platform: "linux", homedir: "", tmpdir: "/tmp" })).toBe(
      "/tmp/caveman-mcp/chips",
    );
  });
});
