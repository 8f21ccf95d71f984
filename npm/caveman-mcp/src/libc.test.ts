import { describe, expect, it } from "vitest";
import { detectLibc } from "./libc.js";

const GLIBC_LDD = "#!/bin/bash\n# This file is part of the GNU C Library.\nTEXTDOMAIN=libc\n";
const MUSL_LDD = "\u007fELF\u0002\u0001\u0001...musl libc (x86_64)\nVersion 1.2.4\n";

describe("detectLibc", () => {
  it("trusts the process report's glibc runtime version above everything else", () => {
    const v = detectLibc({
      glibcVersionRuntime: "2.36",
      lddText: MUSL_LDD,
      libEntries: ["ld-musl-x86_64.so.1"],
    });
    expect(v.libc).toBe("glibc");
    expect(v.source).toContain("2.36");
  });

  it("sees musl from a musl loader mapped into the running process", () => {
    const v = detectLibc({ sharedObjects: ["/lib/ld-musl-aarch64.so.1", "/usr/lib/libstdc++.so.6"] });
    expect(v).toEqual({ libc: "musl", source: "process report: /lib/ld-musl-aarch64.so.1 is loaded" });
  });

  it("recognises Alpine's libc.musl shared object name", () => {
    expect(detectLibc({ sharedObjects: ["/lib/libc.musl-x86_64.so.1"] }).libc).toBe("musl");
  });

  it("reads ldd when the report says nothing", () => {
    expect(detectLibc({ lddText: GLIBC_LDD }).libc).toBe("glibc");
    expect(detectLibc({ lddText: MUSL_LDD }).libc).toBe("musl");
  });

  it("falls back to the loader files in /lib", () => {
    expect(detectLibc({ lddText: "", libEntries: ["apk", "ld-musl-x86_64.so.1"] })).toEqual({
      libc: "musl",
      source: "/lib/ld-musl-x86_64.so.1 exists",
    });
    expect(detectLibc({ libEntries: ["x86_64-linux-gnu", "ld-linux-x86-64.so.2"] }).libc).toBe("glibc");
  });

  it("says unknown when /lib holds both loaders (a glibc host with Debian's musl package)", () => {
    const both = ["ld-linux-x86-64.so.2", "ld-musl-x86_64.so.1", "x86_64-linux-gnu"];
    expect(detectLibc({ libEntries: both }).libc).toBeNull();
    expect(detectLibc({ libEntries: both.slice().reverse() }).libc).toBeNull();
    expect(detectLibc({ libEntries: both, lddText: GLIBC_LDD }).libc).toBe("glibc");
  });

  it("says unknown rather than guessing when there is no evidence", () => {
    expect(detectLibc({})).toEqual({ libc: null, source: "no evidence of glibc or musl" });
    expect(
      detectLibc({ glibcVersionRuntime: "", sharedObjects: [], lddText: "#!/bin/sh\n", libEntries: [] }).libc,
    ).toBe(null);
  });

  it("is not fooled by hostile or binary ldd contents", () => {
    const junk = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37) % 256)).toString("latin1");
    expect(detectLibc({ lddText: junk }).libc).toBeNull();
    expect(detectLibc({ sharedObjects: ["/opt/not-ld-musl/readme.txt"] }).libc).toBeNull();
  });
});
