import { describe, expect, it } from "vitest";
import { describeHost, formatFailure, formatNotice } from "./diagnostics.js";
import { LauncherError } from "./errors.js";
import type { HostFacts } from "./resolve.js";

const musl: HostFacts = {
  platform: "linux",
  arch: "arm64",
  libc: "musl",
  libcSource: "/lib/ld-musl-aarch64.so.1 exists",
  node: "v22.3.0",
  abi: "127",
  builtinSqlite: false,
  execPath: "/usr/bin/node",
};

describe("diagnostics", () => {
  it("describes the host with platform, arch, libc with its evidence, and Node with its ABI", () => {
    expect(describeHost(musl)).toBe(
      "platform linux, arch arm64, libc musl (/lib/ld-musl-aarch64.so.1 exists), Node v22.3.0 (ABI 127)",
    );
    expect(describeHost({ ...musl, platform: "darwin", libc: null })).not.toContain("libc");
  });

  it("explains a failure: what was detected, each step tried, foreign packages, how to reinstall", () => {
    const text = formatFailure(musl, {
      ok: false,
      error: new LauncherError("launcher_no_server", "no server build fits this host."),
      tried: [
        "@caveman-mcp/linux-arm64-musl: not installed",
        "portable server: not part of this launcher build",
      ],
      foreign: ["@caveman-mcp/darwin-arm64"],
    });
    expect(text).toContain("launcher_no_server: no server build fits this host.");
    expect(text).toContain("detected: platform linux, arch arm64, libc musl");
    expect(text).toContain("    - @caveman-mcp/linux-arm64-musl: not installed\n");
    expect(text).toContain("built for another host: @caveman-mcp/darwin-arm64");
    expect(text).toContain("npm install caveman-mcp");
    expect(text).toContain("CAVEMAN_MCP_BINARY");
    expect(text.endsWith("\n")).toBe(true);
  });

  it("prints nothing for a clean launch and a notice with the steps tried for a degraded one", () => {
    const base = {
      via: "platform",
      command: "node",
      args: [],
      env: {},
      notice: null,
      tried: [],
      foreign: [],
    } as const;
    expect(formatNotice(base)).toBeNull();
    const degraded = formatNotice({
      ...base,
      via: "portable-memory",
      notice: "caveman-mcp: memory",
      tried: ["a: b"],
    });
    expect(degraded).toBe("caveman-mcp: memory\n  tried: a: b\n");
  });

  it("escapes control characters from tried steps and foreign names, keeping its own line breaks", () => {
    const text = formatNotice({
      via: "portable-memory",
      command: "node",
      args: [],
      env: {},
      notice: "caveman-mcp: memory",
      tried: ["/tmp/x\u001b[31m\r\nforged: ok\u009b"],
      foreign: ["@caveman-mcp/\u0007bell"],
    });
    expect(text).toContain("/tmp/x\\u001b[31m\\u000d\\u000aforged: ok\\u009b");
    expect(text).toContain("@caveman-mcp/\\u0007bell");
    expect(text?.split("\n")).toHaveLength(5);
    expect([...(text ?? "")].some((c) => c !== "\n" && c.charCodeAt(0) < 0x20)).toBe(false);
  });
});
