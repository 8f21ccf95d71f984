// What we publish passes publint: the launcher, this host's platform package, and the one
// internal library that is published on purpose (@caveman/chip-store; the README records why).
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { describe, expect, it } from "vitest";
import { gatherHost } from "../src/host.js";
import { targetsForHost } from "../src/targets.js";

const npmDir = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const host = gatherHost();
const hostTarget = targetsForHost(host.platform, host.arch, host.libc)[0];

async function lint(pkgDir: string): Promise<string[]> {
  const { messages, pkg } = await publint({ pkgDir, pack: "pnpm", level: "suggestion", strict: true });
  return messages.map((m) => `${m.type}: ${formatMessage(m, pkg, { color: false }) ?? m.code}`);
}

describe("publint", () => {
  it("finds nothing to say about the launcher", async () => {
    expect(await lint(resolve(npmDir, "caveman-mcp"))).toEqual([]);
  });

  it("finds nothing to say about this host's platform package", async () => {
    expect(hostTarget).toBeDefined();
    expect(await lint(resolve(npmDir, "platforms", hostTarget?.id ?? "none"))).toEqual([]);
  });

  it("finds no error or warning in @caveman/chip-store, the published library", async () => {
    const found = await lint(resolve(npmDir, "..", "packages", "chip-store"));
    expect(found.filter((m) => !m.startsWith("suggestion"))).toEqual([]);
  });
});
