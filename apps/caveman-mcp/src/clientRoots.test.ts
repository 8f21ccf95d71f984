import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { usableRoots } from "./clientRoots.js";

const uri = (dir: string) => ({ uri: pathToFileURL(dir).href });

describe("usableRoots: which client roots may confine the edit tools", () => {
  const base = tempDir("caveman-client-roots-");
  const home = join(base, "home");
  const project = join(home, "project");
  mkdirSync(project, { recursive: true });

  it("keeps existing project directories", () => {
    expect(usableRoots([uri(project)], home)).toEqual({ dirs: [project], skipped: [] });
  });

  it("skips / and the home directory, as it refuses them as an implicit root, naming --root", () => {
    const link = join(base, "home-link");
    symlinkSync(home, link);
    const { dirs, skipped } = usableRoots(
      [uri("/"), uri(home), uri(`${home}/`), uri(link), uri(project)],
      home,
    );
    expect(dirs).toEqual([project]);
    expect(skipped).toHaveLength(4);
    for (const s of skipped) expect(s).toMatch(/--root/);
  });

  it("skips relative or host-qualified file URIs instead of reading them as absolute paths", () => {
    const { dirs, skipped } = usableRoots(
      [{ uri: "file:home/project" }, { uri: `file://otherhost${project}` }, { uri: `file:${project}` }],
      home,
    );
    // `file:/abs` is the short form of an absolute file URI (RFC 8089): kept.
    expect(dirs).toEqual([project]);
    expect(skipped).toHaveLength(2);
  });
});
