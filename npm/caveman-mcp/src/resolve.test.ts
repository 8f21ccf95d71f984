import { describe, expect, it } from "vitest";
import { BINDING_ENV, OVERRIDE_ENV } from "./layout.js";
import { type HostFacts, type OrdinarySqlite, type ResolveInput, resolveLaunch } from "./resolve.js";
import { type Libc, packageName, TARGETS } from "./targets.js";

const NM = "/proj/node_modules";
const PORTABLE = `${NM}/caveman-mcp/dist/portable/cli.mjs`;

function host(platform: string, arch: string, libc: Libc | null = null, abi = "115"): HostFacts {
  const node = abi === "115" ? "v20.20.2" : abi === "127" ? "v22.3.0" : "v24.22.3";
  const builtinSqlite = abi !== "115" && abi !== "127";
  return { platform, arch, libc, libcSource: "test", node, abi, builtinSqlite, execPath: "/usr/bin/node" };
}

interface World {
  /** Platform package ids installed, each with the ABIs its dist carries. */
  installed?: Record<string, string[]>;
  override?: string;
  files?: string[];
  portable?: boolean;
  sqlite?: OrdinarySqlite;
  emulate?: true | string;
}

function input(h: HostFacts, world: World = {}): ResolveInput {
  const files = new Set(world.files ?? []);
  const dirs = new Map<string, string[]>();
  const installed = world.installed ?? {};
  for (const [id, abis] of Object.entries(installed)) {
    const dir = `${NM}/@caveman-mcp/${id}`;
    files.add(`${dir}/dist/cli.mjs`);
    for (const abi of abis) files.add(`${dir}/dist/node-v${abi}/better_sqlite3.node`);
    dirs.set(`${dir}/dist`, ["cli.mjs", ...abis.map((a) => `node-v${a}`)]);
  }
  if (world.portable !== false) files.add(PORTABLE);
  return {
    host: h,
    override: world.override,
    exists: (p) => files.has(p),
    listDir: (p) => dirs.get(p) ?? [],
    packageDir: (name) =>
      name.startsWith("@caveman-mcp/") && name.slice(13) in installed ? `${NM}/${name}` : null,
    siblingPackages: () => Object.keys(installed).map((id) => `@caveman-mcp/${id}`),
    portableServer: world.portable === false ? null : PORTABLE,
    ordinarySqlite: () =>
      world.sqlite ?? { ok: false, reason: "not installed where the launcher can see it" },
    canEmulate: () => world.emulate ?? "no emulation for this host",
  };
}

const HOSTS: Array<[string, HostFacts, string | null]> = [
  ["linux x64 glibc", host("linux", "x64", "glibc"), "linux-x64-gnu"],
  ["linux x64 musl", host("linux", "x64", "musl"), "linux-x64-musl"],
  ["linux arm64 glibc", host("linux", "arm64", "glibc"), "linux-arm64-gnu"],
  ["linux arm64 musl", host("linux", "arm64", "musl"), "linux-arm64-musl"],
  ["darwin x64", host("darwin", "x64"), "darwin-x64"],
  ["darwin arm64", host("darwin", "arm64"), "darwin-arm64"],
  ["win32 x64", host("win32", "x64"), "win32-x64"],
  ["win32 arm64", host("win32", "arm64"), "win32-arm64"],
  ["freebsd x64", host("freebsd", "x64"), null],
];

describe("resolveLaunch: the override", () => {
  for (const [label, h] of HOSTS) {
    it(`${label}: a valid CAVEMAN_MCP_BINARY wins over any installed package`, () => {
      const all = Object.fromEntries(TARGETS.map((t) => [t.id, ["115"]]));
      const r = resolveLaunch(
        input(h, { installed: all, override: "/opt/srv.mjs", files: ["/opt/srv.mjs"] }),
      );
      expect(r.ok && r.plan).toMatchObject({
        via: "override",
        command: "/usr/bin/node",
        args: ["/opt/srv.mjs"],
      });
    });

    it(`${label}: a missing CAVEMAN_MCP_BINARY is a loud error naming the variable, with no fallback`, () => {
      const r = resolveLaunch(input(h, { override: "/nope/server" }));
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe("launcher_override_missing");
      expect(r.error.message).toContain(OVERRIDE_ENV);
      expect(r.error.message).toContain("/nope/server");
    });
  }

  it("runs a non-script override directly, as an executable", () => {
    const r = resolveLaunch(
      input(host("linux", "x64", "glibc"), { override: "/opt/srv", files: ["/opt/srv"] }),
    );
    expect(r.ok && r.plan).toMatchObject({ command: "/opt/srv", args: [] });
  });

  it.each(["", " ", "\t\n"])(
    "treats a blank override (%j) as unset, as the server treats every variable",
    (blank) => {
      const r = resolveLaunch(
        input(host("linux", "x64", "glibc"), { override: blank, installed: { "linux-x64-gnu": ["115"] } }),
      );
      expect(r.ok && r.plan.via).toBe("platform");
    },
  );
});

describe("resolveLaunch: platform packages", () => {
  for (const [label, h, own] of HOSTS) {
    if (own === null) continue;
    it(`${label}: picks ${own} and hands its binding to the server`, () => {
      const others = Object.fromEntries(TARGETS.filter((t) => t.id !== own).map((t) => [t.id, ["115"]]));
      const r = resolveLaunch(input(h, { installed: { ...others, [own]: ["115", "127"] } }));
      if (!r.ok) throw r.error;
      const dir = `${NM}/@caveman-mcp/${own}`;
      expect(r.plan).toMatchObject({
        via: "platform",
        command: "/usr/bin/node",
        args: [`${dir}/dist/cli.mjs`],
      });
      expect(r.plan.env).toEqual({ [BINDING_ENV]: `${dir}/dist/node-v115/better_sqlite3.node` });
      expect(r.plan.notice).toBeNull();
    });
  }

  it("never takes the other libc's build on a host whose libc is known", () => {
    const r = resolveLaunch(input(host("linux", "x64", "musl"), { installed: { "linux-x64-gnu": ["115"] } }));
    expect(r.ok && r.plan.via).toBe("portable-memory");
    expect(r.ok && r.plan.foreign).toEqual(["@caveman-mcp/linux-x64-gnu"]);
  });

  it("with an unknown libc tries glibc then musl, and takes whichever is installed", () => {
    const h = host("linux", "x64", null);
    const musl = resolveLaunch(input(h, { installed: { "linux-x64-musl": ["115"] } }));
    expect(musl.ok && musl.plan.args[0]).toContain("linux-x64-musl");
    expect(musl.ok && musl.plan.tried).toEqual(["@caveman-mcp/linux-x64-gnu: not installed"]);
    const both = resolveLaunch(
      input(h, { installed: { "linux-x64-musl": ["115"], "linux-x64-gnu": ["115"] } }),
    );
    expect(both.ok && both.plan.args[0]).toContain("linux-x64-gnu");
  });

  it("passes over a package without a binding for this Node's ABI and says which ABIs it has", () => {
    const r = resolveLaunch(
      input(host("linux", "x64", "glibc", "127"), { installed: { "linux-x64-gnu": ["115"] } }),
    );
    expect(r.ok && r.plan.via).toBe("portable-memory");
    expect(r.ok && r.plan.tried[0]).toMatch(/no SQLite binding for Node ABI v127 .* it has v115/);
  });

  it("on Node 22.13+ runs the platform server without a binding for its ABI: node:sqlite serves", () => {
    const r = resolveLaunch(
      input(host("linux", "x64", "glibc", "137"), { installed: { "linux-x64-gnu": ["115"] } }),
    );
    if (!r.ok) throw r.error;
    expect(r.plan).toMatchObject({ via: "platform", env: {}, notice: null, tried: [] });
    expect(r.plan.args[0]).toContain("linux-x64-gnu/dist/cli.mjs");
  });

  it("on Node 20 without the binding its ABI needs, says to move to Node 22.13+, not to reinstall", () => {
    const r = resolveLaunch(
      input(host("linux", "x64", "glibc"), { installed: { "linux-x64-gnu": ["127"] } }),
    );
    expect(r.ok && r.plan.via).toBe("portable-memory");
    expect(r.ok && r.plan.notice).toMatch(/Fix: run on Node 22\.13 or newer/);
    expect(r.ok && r.plan.notice).not.toMatch(/optional dependencies/);
  });

  it("passes over an installed package whose dist was never built", () => {
    const h = host("linux", "x64", "glibc");
    const i = input(h, { installed: { "linux-x64-gnu": ["115"] } });
    const r = resolveLaunch({ ...i, exists: (p) => !p.endsWith("dist/cli.mjs") && i.exists(p) });
    expect(r.ok && r.plan.tried[0]).toContain("dist/cli.mjs is missing");
  });
});

describe("resolveLaunch: emulation", () => {
  const mac = host("darwin", "arm64");
  it("runs darwin-x64 under Rosetta on Apple Silicon when the probe says it can", () => {
    const r = resolveLaunch(input(mac, { installed: { "darwin-x64": ["115"] }, emulate: true }));
    if (!r.ok) throw r.error;
    expect(r.plan.via).toBe("emulated");
    expect(r.plan.command).toBe("/usr/bin/arch");
    expect(r.plan.args).toEqual(["-x86_64", "/usr/bin/node", `${NM}/@caveman-mcp/darwin-x64/dist/cli.mjs`]);
    expect(r.plan.notice).toContain("emulation");
    expect(r.plan.foreign).toEqual([]);
  });

  it("falls through to the portable server when this Node cannot run as x64", () => {
    const r = resolveLaunch(input(mac, { installed: { "darwin-x64": ["115"] }, emulate: "not universal" }));
    expect(r.ok && r.plan.via).toBe("portable-memory");
    expect(r.ok && r.plan.tried).toContain("@caveman-mcp/darwin-x64 under emulation: not universal");
  });

  it("offers no emulation to hosts without a documented one", () => {
    for (const [, h] of HOSTS.filter(([label]) => label !== "darwin arm64")) {
      const all = Object.fromEntries(TARGETS.map((t) => [t.id, ["115"]]));
      const r = resolveLaunch(input(h, { installed: all, emulate: true }));
      expect(r.ok && r.plan.via).not.toBe("emulated");
    }
  });
});

describe("resolveLaunch: the portable fallback", () => {
  for (const [label, h, own] of HOSTS) {
    it(`${label}: with nothing installed uses an ordinary better-sqlite3 that loads`, () => {
      const sqlite: OrdinarySqlite = { ok: true, binding: "/x/better_sqlite3.node", from: "/x" };
      const r = resolveLaunch(input(h, { sqlite }));
      if (!r.ok) throw r.error;
      expect(r.plan).toMatchObject({
        via: "portable-sqlite",
        args: [PORTABLE],
        env: { [BINDING_ENV]: "/x/better_sqlite3.node" },
      });
      expect(r.plan.notice).toContain("/x");
      if (own !== null)
        expect(r.plan.tried).toContain(`${packageName({ id: own, os: "", cpu: "" })}: not installed`);
    });

    it(`${label}: with no loadable SQLite runs the memory store and says so, with the fix`, () => {
      const r = resolveLaunch(input(h, { sqlite: { ok: false, reason: "ABI mismatch" } }));
      if (!r.ok) throw r.error;
      // No --ephemeral: the server finds no SQLite itself, says why, and its doctor fails.
      expect(r.plan).toMatchObject({ via: "portable-memory", args: [PORTABLE], env: {} });
      expect(r.plan.notice).toContain("originals are kept in memory only and will be lost at exit");
      expect(r.plan.notice).toContain("Node v20.20.2 has no built-in SQLite");
      if (own !== null)
        expect(r.plan.notice).toMatch(/Fix: reinstall caveman-mcp with its optional dependencies/);
      else expect(r.plan.notice).toMatch(/Fix: run on Node 22\.13 or newer/);
      expect(r.plan.tried).toContain("ordinary better-sqlite3: ABI mismatch");
    });

    it(`${label}: on a Node with built-in SQLite, the portable server needs no better-sqlite3`, () => {
      let probed = false;
      const i = input({ ...h, node: "v24.22.3", abi: "137", builtinSqlite: true });
      const r = resolveLaunch({
        ...i,
        ordinarySqlite: () => {
          probed = true;
          return i.ordinarySqlite();
        },
      });
      if (!r.ok) throw r.error;
      expect(r.plan).toMatchObject({ via: "portable-sqlite", args: [PORTABLE], env: {} });
      expect(r.plan.notice).toContain("Node's built-in SQLite");
      expect(probed).toBe(false);
    });
  }

  it("fails with every step listed when the launcher carries no portable server", () => {
    const r = resolveLaunch(
      input(host("linux", "x64", "glibc"), { portable: false, installed: { "darwin-arm64": ["115"] } }),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe("launcher_no_server");
    expect(r.tried).toEqual([
      "@caveman-mcp/linux-x64-gnu: not installed",
      "portable server: not part of this launcher build",
    ]);
    expect(r.foreign).toEqual(["@caveman-mcp/darwin-arm64"]);
  });

  it("does not probe for SQLite when a platform package fits", () => {
    let probed = false;
    const i = input(host("win32", "x64"), { installed: { "win32-x64": ["115"] } });
    const ordinarySqlite = (): OrdinarySqlite => {
      probed = true;
      return { ok: false, reason: "-" };
    };
    resolveLaunch({ ...i, ordinarySqlite });
    expect(probed).toBe(false);
  });
});
