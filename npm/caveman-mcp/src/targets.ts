// The one table of build targets. It drives the launcher's resolution, every platform
// package's manifest (os, cpu, libc) and the launcher's optionalDependencies; a test fails
// when npm/platforms/* or package.json disagree with it (the esbuild/Biome pattern).

/** The C library of a Linux host, named as npm's `libc` manifest field names it. */
export type Libc = "glibc" | "musl";

/** One platform build of the server: the npm package that carries it and where it runs. */
export interface Target {
  /** Directory under npm/platforms and the package name's suffix, e.g. `linux-x64-gnu`. */
  readonly id: string;
  /** `process.platform` value, also the manifest's `os` entry. */
  readonly os: string;
  /** `process.arch` value, also the manifest's `cpu` entry. */
  readonly cpu: string;
  /** Linux only: the C library the prebuilt binding was linked against. */
  readonly libc?: Libc;
}

/** npm scope of the platform packages. */
export const PLATFORM_SCOPE = "@caveman-mcp";

/** Every target a release publishes, in resolution-preference order within a host. */
export const TARGETS: readonly Target[] = [
  { id: "linux-x64-gnu", os: "linux", cpu: "x64", libc: "glibc" },
  { id: "linux-x64-musl", os: "linux", cpu: "x64", libc: "musl" },
  { id: "linux-arm64-gnu", os: "linux", cpu: "arm64", libc: "glibc" },
  { id: "linux-arm64-musl", os: "linux", cpu: "arm64", libc: "musl" },
  { id: "darwin-x64", os: "darwin", cpu: "x64" },
  { id: "darwin-arm64", os: "darwin", cpu: "arm64" },
  { id: "win32-x64", os: "win32", cpu: "x64" },
  { id: "win32-arm64", os: "win32", cpu: "arm64" },
];

/**
 * Hosts that may run another target's build under emulation, and only there. Apple Silicon
 * runs x64 code under Rosetta 2, so an x64 Node (a universal binary started with
 * `arch -x86_64`) loads the darwin-x64 binding; the launcher probes that before using it.
 */
export const EMULATION: Readonly<Record<string, string>> = {
  "darwin-arm64": "darwin-x64",
};

/** The npm package name of a target. */
export function packageName(target: Target): string {
  return `${PLATFORM_SCOPE}/${target.id}`;
}

/** The target with this id, or undefined. */
export function targetById(id: string): Target | undefined {
  return TARGETS.find((t) => t.id === id);
}

/**
 * Targets that match a host exactly. On Linux with an unknown libc both builds match,
 * glibc first (the common case); the launcher says so in its diagnostics.
 */
export function targetsForHost(platform: string, arch: string, libc: Libc | null): Target[] {
  return TARGETS.filter(
    (t) => t.os === platform && t.cpu === arch && (t.libc === undefined || libc === null || t.libc === libc),
  );
}

/** The manifest fields npm uses to install only the host's package. */
export function manifestConstraints(target: Target): { os: string[]; cpu: string[]; libc?: string[] } {
  return target.libc === undefined
    ? { os: [target.os], cpu: [target.cpu] }
    : { os: [target.os], cpu: [target.cpu], libc: [target.libc] };
}
