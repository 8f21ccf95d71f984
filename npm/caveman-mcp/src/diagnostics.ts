// Turns a resolution into the words a user sees on stderr. A failure says what was
// detected (platform, arch, libc, Node), every step tried, any platform package for another
// host found beside the launcher, and how to reinstall; it never writes to stdout.
import { OVERRIDE_ENV } from "./layout.js";
import type { HostFacts, LaunchPlan, Resolution } from "./resolve.js";

/**
 * One line made safe for a terminal: paths and reasons come from the environment and the
 * file system, and a control character in them could rewrite the user's screen or forge
 * diagnostic lines, so each is shown as a \\uXXXX escape instead. Linear in the line's length.
 */
export function printable(line: string): string {
  let out = "";
  for (const c of line) {
    const code = c.charCodeAt(0);
    const control = code < 0x20 || (code >= 0x7f && code <= 0x9f);
    out += control ? `\\u${code.toString(16).padStart(4, "0")}` : c;
  }
  return out;
}

/** One line describing the host, e.g. `linux x64, libc glibc (...), Node v20.20.2 (ABI 115)`. */
export function describeHost(host: HostFacts): string {
  const libc = host.platform === "linux" ? `, libc ${host.libc ?? "unknown"} (${host.libcSource})` : "";
  return `platform ${host.platform}, arch ${host.arch}${libc}, Node ${host.node} (ABI ${host.abi})`;
}

function foreignLines(foreign: readonly string[]): string[] {
  if (foreign.length === 0) return [];
  return [
    `  found beside the launcher, built for another host: ${foreign.join(", ")}`,
    "    (node_modules was installed on another machine or copied here; install on this one)",
  ];
}

/** The multi-line report printed before the launcher exits 1. */
export function formatFailure(host: HostFacts, failed: Extract<Resolution, { ok: false }>): string {
  const lines = [
    `caveman-mcp: cannot start the server. ${failed.error.message}`,
    `  detected: ${describeHost(host)}`,
    "  tried:",
    ...(failed.tried.length > 0 ? failed.tried.map((t) => `    - ${t}`) : ["    - nothing else"]),
    ...foreignLines(failed.foreign),
    "  to fix:",
    "    - reinstall with optional dependencies kept: `npm install caveman-mcp` (not --omit=optional),",
    "      or delete npx's cached copy (the _npx folder in npm's cache) and run `npx -y caveman-mcp`;",
    "    - with pnpm or yarn, make sure this platform is not excluded (supportedArchitectures);",
    `    - or set ${OVERRIDE_ENV} to the absolute path of a server you built.`,
    "  caveman-mcp never downloads anything at run time.",
  ];
  return `${lines.map(printable).join("\n")}\n`;
}

/** The stderr notice for a degraded launch (fallback, emulation), or null for a clean one. */
export function formatNotice(plan: LaunchPlan): string | null {
  if (plan.notice === null) return null;
  const extra = plan.tried.map((t) => `  tried: ${t}`);
  return `${[plan.notice, ...extra, ...foreignLines(plan.foreign)].map(printable).join("\n")}\n`;
}
