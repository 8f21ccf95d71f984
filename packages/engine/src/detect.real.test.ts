import { describe, expect, it } from "vitest";
import { compress } from "./compress.js";
import { detect } from "./detect.js";

// Small hand-written samples in the shapes of corpus/real items that used to come out as text,
// code or prose: each is detected by its structure, comes out smaller, and keeps its gold line.
const grepC2 = [
  ...Array.from({ length: 6 }, (_, f) =>
    [
      `src/app/mod${f}.py-${10 * f + 1}-    def handler(self, request):`,
      `src/app/mod${f}.py-${10 * f + 2}-        if not request.valid:`,
      `src/app/mod${f}.py:${10 * f + 3}:            raise ValueError("request ${f} is not valid")`,
      `src/app/mod${f}.py-${10 * f + 4}-        return self.dispatch(request)`,
      `src/app/mod${f}.py-${10 * f + 5}-`,
    ].join("\n"),
  ),
].join("\n--\n");

const javac = Array.from({ length: 8 }, (_, i) =>
  [
    `gson/src/main/java/com/google/gson/Type${i}.java:${19 + i}: error: package com.google.errorprone.annotations does not exist`,
    "import com.google.errorprone.annotations.CanIgnoreReturnValue;",
    "                                        ^",
  ].join("\n"),
)
  .concat([
    "gson/src/main/java/com/google/gson/stream/JsonWriter.java:526: error: cannot find symbol",
    "9 errors",
  ])
  .join("\n");

const lsLR = ["lib", "test", "test/acceptance", "test/fixtures"]
  .map((dir) =>
    [
      `${dir}:`,
      "total 80",
      "drwxr-xr-x 2 root root  4096 Dec  2 00:34 .",
      "drwxr-xr-x 8 root root  4096 Dec  2 00:35 ..",
      ...Array.from(
        { length: 8 },
        (_, i) => `-rw-r--r-- 1 root root ${13953 + i * 7} Dec  2 00:34 file${i}.js`,
      ),
    ].join("\n"),
  )
  .join("\n\n");

const pipNames = [
  "annotated-types",
  "asttokens",
  "certifi",
  "charset-normalizer",
  "idna",
  "jedi",
  "packaging",
];
const pipList = [
  "Package                   Version",
  "------------------------- -----------",
  ...pipNames.map((n, i) => `${n.padEnd(25)} ${i}.${i + 3}.${i * 2}`),
  ...Array.from({ length: 30 }, (_, i) => `${`plugin-${i}`.padEnd(25)} 1.${i}.0`),
].join("\n");

const npmLs = [
  "express@5.2.1 /src/express",
  ...Array.from({ length: 12 }, (_, i) =>
    [
      `├─┬ dep${i}@2.${i}.0`,
      `│ ├── mime-types@3.0.${i} deduped`,
      `│ └─┬ negotiator@1.1.${i}`,
      "│   └── content-type@2.1.0 deduped",
    ].join("\n"),
  ),
  "└── vary@1.1.2",
].join("\n");

const aptShow = ["redis-server", "postgresql-15", "git", "sqlite3"]
  .map((pkg, i) =>
    [
      `Package: ${pkg}`,
      `Version: ${i + 1}.${i}-0+deb12u1`,
      "Installed-Size: 183",
      "Maintainer: Debian Maintainers <maint@debian.org>",
      "Architecture: amd64",
      "Depends: libc6 (>= 2.34), lsb-base (>= 3.2-14)",
      `Description: package ${pkg} of the sample`,
      ` This is the long description of ${pkg}, which goes on for a while`,
      " and continues on a second indented line.",
      `Filename: pool/main/${pkg}_${i}.deb`,
      "SHA256: 784e17b51024ff878fd7d709a68346658fa9b21f6de740cb75e474f28790971c",
    ].join("\n"),
  )
  .join("\n\n");

const cases = [
  {
    name: "git grep -C2 with -- separators",
    text: grepC2,
    kind: "grep",
    gold: 'src/app/mod3.py:33:            raise ValueError("request 3 is not valid")',
  },
  { name: "javac diagnostics", text: javac, kind: "diagnostics", gold: "9 errors" },
  { name: "ls -laR", text: lsLR, kind: "table", gold: "test/acceptance:" },
  { name: "pip list", text: pipList, kind: "table", gold: "Package                   Version" },
  { name: "npm ls tree", text: npmLs, kind: "table", gold: "express@5.2.1 /src/express" },
  { name: "apt-cache show stanzas", text: aptShow, kind: "table", gold: "Package: redis-server" },
] as const;

describe("detection of real output shapes by structure", () => {
  for (const c of cases) {
    it(`detects ${c.name} as ${c.kind} and compresses it without losing the gold line`, () => {
      expect(detect(c.text).kind).toBe(c.kind);
      const res = compress(c.text);
      expect(res.tokensOut).toBeLessThan(res.tokensIn);
      expect(res.output).toContain(c.gold);
      for (const line of res.output.split("\n"))
        if (!line.includes("[caveman:")) expect(c.text.split("\n")).toContain(line);
    });
  }

  it("does not read dated names with dashes as grep context", () => {
    const text = Array.from({ length: 10 }, (_, i) => `2024-01-0${i % 9}-init.sql applied in ${i}ms`).join(
      "\n",
    );
    expect(detect(text).kind).not.toBe("grep");
  });

  it("keeps the package and version of every apt-cache show stanza", () => {
    const res = compress(aptShow);
    for (const [i, pkg] of ["redis-server", "postgresql-15", "git", "sqlite3"].entries()) {
      expect(res.output).toContain(`Package: ${pkg}`);
      expect(res.output).toContain(`Version: ${i + 1}.${i}-0+deb12u1`);
    }
  });

  it("keeps what every apt history stanza ran", () => {
    const history = Array.from({ length: 6 }, (_, i) =>
      [
        `Start-Date: 2025-06-24  14:3${i}:25`,
        `Commandline: apt-get install -y tool${i}`,
        `Install: tool${i}:amd64 (1.${i}-1), libtool${i}:amd64 (1.${i}-1, automatic), libextra${i}:amd64 (2.${i}-3, automatic)`,
        `End-Date: 2025-06-24  14:3${i}:29`,
      ].join("\n"),
    ).join("\n\n");
    const res = compress(history);
    expect(res.tokensOut).toBeLessThan(res.tokensIn);
    for (let i = 0; i < 6; i++) expect(res.output).toContain(`Commandline: apt-get install -y tool${i}`);
  });
});
