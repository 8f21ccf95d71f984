// Where chips live when the caller does not say. Pure: the caller reads the environment and passes
// the values (unset, or blank, as undefined), so a library never reads process.env itself.

import { join, win32 } from "node:path";

export interface DefaultChipDirInput {
  platform: string;
  homedir: string;
  tmpdir: string;
  /** The value of `XDG_CACHE_HOME`, if set (a relative one is ignored, as XDG says). */
  xdgCacheHome?: string | undefined;
  /** The value of `%LOCALAPPDATA%` on Windows, if set. */
  localAppData?: string | undefined;
}

/**
 * Linux/macOS: `<xdgCacheHome>/caveman-mcp/chips`, else `~/.cache/caveman-mcp/chips`.
 * Windows: `<localAppData>\caveman-mcp\chips`. Last resort: the OS temp dir.
 */
export function defaultChipDir(input: DefaultChipDirInput): string {
  const { platform, homedir, tmpdir, xdgCacheHome, localAppData } = input;
  const usable = (v: string | undefined): v is string => typeof v === "string" && v.trim() !== "";
  if (platform === "win32") {
    if (usable(localAppData)) return win32.join(localAppData, "caveman-mcp", "chips");
    if (usable(homedir)) return win32.join(homedir, "AppData", "Local", "caveman-mcp", "chips");
    return win32.join(tmpdir, "caveman-mcp", "chips");
  }
  // XDG says a relative XDG_CACHE_HOME is invalid and must be ignored.
  if (usable(xdgCacheHome) && xdgCacheHome.startsWith("/")) {
    return join(xdgCacheHome, "caveman-mcp", "chips");
  }
  if (usable(homedir)) return join(homedir, ".cache", "caveman-mcp", "chips");
  return join(tmpdir, "caveman-mcp", "chips");
}
