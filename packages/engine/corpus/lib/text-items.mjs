// Source files, prose, HTML, system logs and a plain listing, taken from what is installed on
// this machine (npm packages in the pnpm store, the pinned CPython 3.11.7 stdlib, Debian's
// logs). System logs are cut to a fixed number of leading lines: they only grow at the end.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gold, headLines, makeTemp, pyStdlib, run, storePackage, withGutter } from "./util.mjs";

const read = (path) => readFileSync(path, "utf8");
const lineWith = (text, re) => text.split("\n").find((l) => re.test(l));

function codeItems() {
  const minisearch = read(join(storePackage("minisearch@7.2.0"), "src", "MiniSearch.ts"));
  const eventsource = read(join(storePackage("eventsource@3.0.7"), "src", "EventSource.ts"));
  const loader = read(join(storePackage("js-yaml@4.3.2"), "lib", "loader.js"));
  const textwrap = read(join(pyStdlib, "textwrap.py"));
  return [
    {
      id: "code-minisearch-ts",
      kind: "code",
      hint: "Read",
      ext: "ts",
      source: "minisearch 7.2.0 src/MiniSearch.ts",
      content: minisearch,
      gold: [
        gold("  add (document: T): void {", "add document"),
        gold("  removeAll (documents?: readonly T[]): void {", "removeAll"),
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the gold is the template literal's source text.
        gold("MiniSearch: duplicate ID ${id}", "duplicate ID"),
      ],
    },
    {
      id: "code-eventsource-ts",
      kind: "code",
      hint: "cat",
      ext: "ts",
      source: "eventsource 3.0.7 src/EventSource.ts",
      content: eventsource,
      gold: [gold(lineWith(eventsource, /^export class EventSource/), "class EventSource")],
    },
    {
      id: "code-js-yaml-loader-gutter",
      kind: "code",
      hint: "Read",
      ext: "txt",
      source: "js-yaml 4.3.2 lib/loader.js as a Read tool shows it (cat -n gutter)",
      content: withGutter(loader),
      gold: [
        gold("function readBlockMapping (state, nodeIndent, flowIndent) {", "readBlockMapping"),
        gold("end of the stream or a document separator is expected", "document separator is expected"),
      ],
    },
    {
      id: "code-python-textwrap",
      kind: "code",
      hint: "python",
      ext: "py",
      source: "CPython 3.11.7 Lib/textwrap.py",
      content: textwrap,
      gold: [
        gold("def shorten(text, width, **kwargs):", "shorten"),
        gold("class TextWrapper:", "TextWrapper"),
      ],
    },
  ];
}

function proseItems() {
  const readme = read(join(storePackage("minisearch@7.2.0"), "README.md"));
  const acorn = read(join(storePackage("acorn@8.19.0"), "CHANGELOG.md"));
  const fsExtra = read(join(storePackage("fs-extra@8.1.0"), "CHANGELOG.md"));
  const acornLines = acorn.split("\n");
  const acornMid = acornLines.slice(Math.floor(acornLines.length / 3)).find((l) => l.startsWith("## "));
  const fsLines = fsExtra.split("\n");
  const fsMid = fsLines.slice(Math.floor(fsLines.length / 2)).find((l) => /^\d+\.\d+\.\d+ \/ \d{4}/.test(l));
  return [
    {
      id: "prose-minisearch-readme",
      kind: "prose",
      hint: "README.md",
      ext: "md",
      source: "minisearch 7.2.0 README.md",
      content: readme,
      gold: [
        gold("## Browser and Node compatibility", "Browser and Node compatibility"),
        gold("(ES2018)", "ES2018 compatibility"),
        gold(
          "https://babeljs.io/docs/babel-plugin-transform-unicode-sets-regex",
          "transform unicode sets regex",
        ),
      ],
    },
    {
      id: "prose-acorn-changelog",
      kind: "prose",
      hint: "CHANGELOG.md",
      ext: "md",
      source: "acorn 8.19.0 CHANGELOG.md",
      content: acorn,
      gold: [
        gold("## 8.17.0 (2026-06-11)", "8.17.0"),
        gold("Disallow `new super()` expressions.", "new super"),
        gold(acornMid, acornMid.slice(3)),
      ],
    },
    {
      id: "prose-fs-extra-changelog",
      kind: "prose",
      hint: "CHANGELOG.md",
      ext: "md",
      source: "fs-extra 8.1.0 CHANGELOG.md",
      content: fsExtra,
      gold: [
        gold("Fix bug `Maximum call stack size exceeded` error in `util/stat`", "Maximum call stack"),
        gold(fsMid),
      ],
    },
  ];
}

function htmlItems() {
  const dir = makeTemp("pydoc");
  run("python3", ["-m", "pydoc", "-w", "argparse"], { cwd: dir });
  const pydoc = read(join(dir, "argparse.html"));
  const idle = read(join(pyStdlib, "idlelib", "help.html"));
  const before = join(storePackage("picomatch@2.3.2"), "lib", "constants.js");
  const after = join(storePackage("picomatch@4.0.7"), "lib", "constants.js");
  const script = [
    "import difflib, sys",
    "a = open(sys.argv[1]).read().splitlines()",
    "b = open(sys.argv[2]).read().splitlines()",
    "sys.stdout.write(difflib.HtmlDiff(wrapcolumn=100).make_file(a, b, 'picomatch 2.3.2', 'picomatch 4.0.7', context=True))",
  ].join("\n");
  const difflibHtml = run("python3", ["-c", script, before, after], {}).stdout;
  return [
    {
      id: "html-pydoc-argparse",
      kind: "html",
      hint: "html",
      ext: "html",
      source: "python3 -m pydoc -w argparse (CPython 3.11.7)",
      content: pydoc,
      gold: [
        gold("ArgumentDefaultsHelpFormatter", "ArgumentDefaultsHelpFormatter"),
        gold("https://docs.python.org/3.11/library/argparse.html", "Module Reference"),
      ],
    },
    {
      id: "html-idle-help",
      kind: "html",
      hint: "html",
      ext: "html",
      source: "CPython 3.11.7 Lib/idlelib/help.html (Sphinx output with scripts and styles)",
      content: idle,
      gold: [
        gold("IDLE is Python’s Integrated Development and Learning Environment.", "Integrated Development"),
      ],
    },
    {
      id: "html-difflib-picomatch",
      kind: "html",
      hint: "html",
      ext: "html",
      source: "python3 difflib.HtmlDiff side-by-side diff of picomatch lib/constants.js 2.3.2 vs 4.0.7",
      content: difflibHtml,
      gold: [
        gold("picomatch 4.0.7", "picomatch 4.0.7"),
        gold("DEFAULT_MAX_EXTGLOB_RECURSION", "DEFAULT_MAX_EXTGLOB_RECURSION"),
      ],
    },
  ];
}

function logItems() {
  const dpkg = headLines(read("/var/log/dpkg.log"), 2600);
  const term = headLines(read("/var/log/apt/term.log"), 2400);
  return [
    {
      id: "log-dpkg",
      kind: "log",
      hint: "cat /var/log/dpkg.log",
      ext: "log",
      source: "this machine's /var/log/dpkg.log, first 2,600 lines",
      content: dpkg,
      gold: [
        gold("2026-05-09 07:28:46 upgrade tzdata:all 2025b-0+deb12u1 2025b-0+deb12u2", "upgrade tzdata"),
      ],
    },
    {
      id: "log-apt-term",
      kind: "log",
      hint: "cat /var/log/apt/term.log",
      ext: "log",
      source: "this machine's /var/log/apt/term.log, first 2,400 lines",
      content: term,
      gold: [
        gold(
          'Failed to open connection to "system" message bus: Failed to connect to socket /run/dbus/system_bus_socket: No such file or directory',
          "Failed to open connection system message bus",
        ),
        gold(
          "start-stop-daemon: unable to stat /usr/libexec/polkitd (No such file or directory)",
          "polkitd unable to stat",
        ),
      ],
    },
  ];
}

function textItems() {
  const dir = join(storePackage("typescript@5.9.3"), "lib");
  const rows = readdirSync(dir)
    .sort()
    .map((name) => `${String(statSync(join(dir, name)).size).padStart(9)}  typescript/lib/${name}`);
  const listing = `${rows.join("\n")}\n`;
  return [
    {
      id: "text-typescript-lib-sizes",
      kind: "text",
      hint: "ls -l",
      ext: "txt",
      source: "file sizes of typescript 5.9.3 lib/ (size and path, sorted by name)",
      content: listing,
      gold: [gold(lineWith(listing, /typescript\/lib\/typescript\.js$/), "typescript.js")],
    },
  ];
}

export function fileItems() {
  return [...codeItems(), ...proseItems(), ...htmlItems(), ...logItems(), ...textItems()];
}
