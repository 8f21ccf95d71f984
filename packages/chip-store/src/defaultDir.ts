// Where chips live when the caller does not say. Pure: the caller passes the environment, so a
// library never reads process.env itself.

import { join, win32 } from "node:path";

export interface DefaultChipDirInput {
  env: Readonly<Record<string, string | undefined>>;
  platform: string;
  homedir: string;
  tmpdir: string;
}

/**
 * Linux/macOS: `$XDG_CACHE_HOME/caveman-mcp/chips`, else `~/.cache/caveman-mcp/chips`.
 * Windows: `%LOCALAPPDATA%\caveman-mcp\chips`. Last resort: the OS temp dir.
 */
export function defaultChipDir({ env, platform, homedir, tmpdir }: DefaultChipDirInput): string {
  const usable = (v: string | undefined): v is string => typeof v === "string" && v.trim() !== "";
  if (platform === "win32") {
    if (usable(env.LOCALAPPDATA)) return win32.join(env.LOCALAPPDATA, "caveman-mcp", "chips");
    if (usable(homedir)) return win32.join(homedir, "AppData", "Local", "caveman-mcp", "chips");
    return win32.join(tmpdir, "caveman-mcp", "chips");
  }
  // XDG says a relative XDG_CACHE_HOME is invalid and must be ignored.
  if (usable(env.XDG_CACHE_HOME) && env.XDG_CACHE_HOME.startsWith("/")) {
    return join(env.XDG_CACHE_HOME, "caveman-mcp", "chips");
  }
  if (usable(homedir)) return join(homedir, ".cache", "caveman-mcp", "chips");
  return join(tmpdir, "caveman-mcp", "chips");
}
