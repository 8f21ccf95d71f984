// Node's compile cache for this binary's own code: what is compiled once is read back from disk by
// the next process (a hook runs once per tool call). Contract: on a Node without
// `module.enableCompileCache` (before 22.1: Node 20) or when it cannot be enabled, nothing happens
// and nothing is said; NODE_DISABLE_COMPILE_CACHE=1 turns it off (Node's own switch). Enabled before
// any chunk loads, it covers every module loaded after it.
import module from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";
import { type Environment, envValue } from "./env.js";

/** The user's cache directory for caveman-mcp: XDG_CACHE_HOME, else the platform's own. */
function compileCacheDir(env: Environment, home: string, platform: string): string {
  const xdg = envValue(env, "XDG_CACHE_HOME");
  if (xdg) return join(xdg, "caveman-mcp");
  if (platform === "darwin") return join(home, "Library", "Caches", "caveman-mcp");
  const local = envValue(env, "LOCALAPPDATA");
  if (platform === "win32" && local) return join(local, "caveman-mcp", "cache");
  return join(home, ".cache", "caveman-mcp");
}

export function enableCompileCache(): void {
  const enable = (module as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
  if (typeof enable !== "function") return;
  try {
    enable(compileCacheDir(process.env, homedir(), process.platform));
  } catch {
    // A cache is an optimisation: an unwritable directory costs only the speed-up.
  }
}
