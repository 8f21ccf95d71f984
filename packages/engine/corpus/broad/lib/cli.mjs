// Columnar CLI output, test runners and machine-readable linters for the broad corpus, rendered
// by seeded generators in each tool's exact layout (column widths computed as the tool computes
// them: padded to the widest cell, numbers right-aligned where the tool does so).
import { rng } from "./rand.mjs";

/** Pads cells to the widest one per column; `right` lists right-aligned column indices. */
function columns(rows, { right = [], gap = "  " } = {}) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  return rows.map((r) =>
    r
      .map((cell, c) => {
        const s = String(cell);
        if (c === r.length - 1) return s;
        return right.includes(c) ? s.padStart(widths[c]) : s.padEnd(widths[c]);
      })
      .join(gap)
      .trimEnd(),
  );
}

const item = (id, family, hint, lines, gold, source, ext = "txt") => ({
  id,
  kind: family.split(":")[0],
  family,
  hint,
  ext,
  source,
  content: `${lines.join("\n")}\n`,
  gold,
});

function psAux(r) {
  const cmds = [
    "/usr/lib/systemd/systemd-journald",
    "/usr/sbin/sshd -D",
    "nginx: worker process",
    "/usr/bin/containerd",
    "postgres: app shop 10.0.3.4(51822) idle",
    "node /srv/app/dist/server.js --port 8080",
    "[kworker/u8:2-events_unbound]",
    "python3 -m gunicorn app:wsgi -w 4",
    "/usr/sbin/cron -f",
  ];
  const rows = [["USER", "PID", "%CPU", "%MEM", "VSZ", "RSS", "TTY", "STAT", "START", "TIME", "COMMAND"]];
  for (let i = 0; i < 420; i++) {
    rows.push([
      r.pick(["root", "www-data", "postgres", "app", "systemd+"]),
      r.int(1, 99999),
      `${r.int(0, 9)}.${r.int(0, 9)}`,
      `${r.int(0, 4)}.${r.int(0, 9)}`,
      r.int(0, 3e6),
      r.int(0, 9e5),
      r.pick(["?", "pts/0"]),
      r.pick(["Ss", "S", "Sl", "R+", "I<"]),
      `${String(r.int(0, 23)).padStart(2, "0")}:${String(r.int(0, 59)).padStart(2, "0")}`,
      `${r.int(0, 90)}:${String(r.int(0, 59)).padStart(2, "0")}`,
      r.pick(cmds),
    ]);
  }
  const planted = [
    "app",
    31337,
    "98.7",
    "12.4",
    4812300,
    2048812,
    "?",
    "Rl",
    "09:12",
    "412:07",
    "node /srv/app/dist/worker.js --leak-check",
  ];
  rows.splice(300, 0, planted);
  const lines = columns(rows, { right: [1, 4, 5], gap: " " });
  return item(
    "table-ps-aux",
    "table:ps-aux",
    "ps aux",
    lines,
    [{ text: lines[300], query: "worker.js leak-check" }],
    "ps aux layout, 420 processes",
  );
}

function dpkg(r) {
  const head = [
    "Desired=Unknown/Install/Remove/Purge/Hold",
    "| Status=Not/Inst/Conf-files/Unpacked/halF-conf/Half-inst/trig-aWait/Trig-pend",
    "|/ Err?=(none)/Reinst-required (Status,Err: uppercase=bad)",
  ];
  const rows = [
    ["||/", "Name", "Version", "Architecture", "Description"],
    ["+++-", "=".repeat(20), "=".repeat(20), "=".repeat(12), "=".repeat(40)],
  ];
  const libs = [
    "libssl3",
    "libc6",
    "zlib1g",
    "libcurl4",
    "libxml2",
    "libsqlite3-0",
    "python3.11",
    "openssh-server",
    "nginx-common",
    "postgresql-16",
  ];
  const desc = [
    "Secure Sockets Layer toolkit - shared libraries",
    "GNU C Library: Shared libraries",
    "compression library - runtime",
    "easy-to-use client-side URL transfer library (OpenSSL flavour)",
    "GNOME XML library",
    "SQLite 3 shared library",
    "Interactive high-level object-oriented language (version 3.11)",
    "secure shell (SSH) server, for secure access from remote machines",
  ];
  for (let i = 0; i < 500; i++)
    rows.push([
      "ii",
      `${r.pick(libs)}${i % 7 ? `-${r.pick(["dev", "data", "common", "bin", "doc"])}${i}` : ""}`,
      `${r.int(1, 9)}.${r.int(0, 40)}.${r.int(0, 9)}-${r.int(1, 9)}+deb12u${r.int(1, 5)}`,
      r.pick(["amd64", "all"]),
      r.pick(desc),
    ]);
  rows.splice(260, 0, [
    "rc",
    "linux-image-6.1.0-9-amd64",
    "6.1.27-1",
    "amd64",
    "Linux 6.1 for 64-bit PCs (signed)",
  ]);
  const lines = [...head, ...columns(rows, { gap: " " })];
  return item(
    "table-dpkg",
    "table:dpkg-l",
    "dpkg -l",
    lines,
    [{ text: lines.find((l) => l.startsWith("rc ")), query: "linux-image-6.1.0-9-amd64" }],
    "dpkg -l layout, 500 packages",
  );
}

function lsL(r) {
  const rows = [];
  for (let i = 0; i < 500; i++) {
    const dir = r.next() < 0.15;
    rows.push([
      dir ? "drwxr-xr-x" : r.pick(["-rw-r--r--", "-rwxr-xr-x", "-rw-------"]),
      r.int(1, 9),
      r.pick(["root", "ada", "www-data"]),
      r.pick(["root", "ada", "www-data"]),
      dir ? 4096 : r.int(0, 9e6),
      `Nov ${String(r.int(1, 30)).padStart(2, " ")} ${String(r.int(0, 23)).padStart(2, "0")}:${String(r.int(0, 59)).padStart(2, "0")}`,
      `${r.pick(["report", "img", "backup", "data", "notes"])}-${i}.${dir ? "d" : r.pick(["csv", "png", "tar.gz", "json", "md"])}`,
    ]);
  }
  rows.splice(333, 0, ["-rw-r--r--", 1, "root", "root", 8589934592, "Nov  2 03:14", "core.dump.31337"]);
  const lines = ["total 20481224", ...columns(rows, { right: [1, 4], gap: " " })];
  return item(
    "table-ls-l",
    "table:ls-l",
    "ls -l",
    lines,
    [{ text: lines.find((l) => l.includes("core.dump")), query: "core.dump" }],
    "ls -l layout, 500 entries",
  );
}

function dfH(r) {
  const rows = [["Filesystem", "Size", "Used", "Avail", "Use%", "Mounted on"]];
  for (let i = 0; i < 160; i++)
    rows.push([
      r.pick(["overlay", "tmpfs", "shm", `/dev/nvme${r.int(0, 3)}n1p${r.int(1, 4)}`]),
      `${r.int(1, 999)}G`,
      `${r.int(1, 500)}G`,
      `${r.int(1, 500)}G`,
      `${r.int(1, 89)}%`,
      `/var/lib/docker/overlay2/${r.hex(64)}/merged`,
    ]);
  rows.splice(90, 0, ["/dev/nvme0n1p2", "916G", "912G", "4.0G", "100%", "/"]);
  const lines = columns(rows, { right: [1, 2, 3, 4], gap: " " });
  return item(
    "table-df-h",
    "table:df-h",
    "df -h",
    lines,
    [{ text: lines[90], query: "100%" }],
    "df -h layout on a container host",
  );
}

function dockerPs(r) {
  const rows = [["CONTAINER ID", "IMAGE", "COMMAND", "CREATED", "STATUS", "PORTS", "NAMES"]];
  for (let i = 0; i < 200; i++)
    rows.push([
      r.hex(12),
      r.pick([
        "nginx:1.27",
        "postgres:16",
        "redis:7.2",
        "ghcr.io/acme/api:2.4.1",
        "ghcr.io/acme/worker:2.4.1",
      ]),
      `"${r.pick(["/docker-entrypoint.…", "docker-entrypoint.s…", "node dist/server.js", "python -m worker"])}"`,
      `${r.int(2, 50)} hours ago`,
      `Up ${r.int(2, 50)} hours${r.next() < 0.5 ? " (healthy)" : ""}`,
      r.next() < 0.4 ? `0.0.0.0:${r.int(3000, 9000)}->${r.int(80, 9000)}/tcp` : "",
      `${r.pick(["api", "worker", "db", "cache", "proxy"])}-${i}`,
    ]);
  rows.splice(120, 0, [
    "3f9e0c1d2b4a",
    "ghcr.io/acme/worker:2.4.1",
    '"python -m worker"',
    "3 minutes ago",
    "Restarting (137) 12 seconds ago",
    "",
    "worker-oom",
  ]);
  const lines = columns(rows, { gap: "   " });
  return item(
    "table-docker-ps",
    "table:docker-ps",
    "docker ps -a",
    lines,
    [{ text: lines[120], query: "Restarting worker-oom" }],
    "docker ps layout, 200 containers",
  );
}

function kubectl(r) {
  const rows = [["NAMESPACE", "NAME", "READY", "STATUS", "RESTARTS", "AGE"]];
  for (let i = 0; i < 400; i++)
    rows.push([
      r.pick(["default", "kube-system", "shop", "monitoring"]),
      `${r.pick(["api", "web", "worker", "coredns", "node-exporter"])}-${r.hex(9)}-${r.hex(5)}`,
      "1/1",
      "Running",
      r.next() < 0.8 ? "0" : `${r.int(1, 4)} (${r.int(2, 50)}h ago)`,
      `${r.int(1, 40)}d`,
    ]);
  rows.splice(211, 0, ["shop", "worker-7d9c6b5f4-x2kq9", "0/1", "CrashLoopBackOff", "17 (2m ago)", "3h"]);
  const lines = columns(rows, { gap: "   " });
  return item(
    "table-kubectl",
    "table:kubectl",
    "kubectl get pods -A",
    lines,
    [{ text: lines[211], query: "CrashLoopBackOff" }],
    "kubectl get pods -A layout, 400 pods",
  );
}

function csv(r, sep, id, family, hint) {
  const lines = [
    ["order_id", "created_at", "customer", "country", "status", "amount_eur", "items"].join(sep),
  ];
  for (let i = 0; i < 700; i++)
    lines.push(
      [
        10000 + i,
        `2026-11-0${r.int(1, 9)} ${String(r.int(0, 23)).padStart(2, "0")}:${String(r.int(0, 59)).padStart(2, "0")}:${String(r.int(0, 59)).padStart(2, "0")}`,
        `cust-${r.int(100, 999)}`,
        r.pick(["DE", "FR", "NL", "IT", "ES"]),
        r.pick(["paid", "paid", "paid", "shipped", "refunded"]),
        `${r.int(5, 400)}.${r.int(10, 99)}`,
        r.int(1, 9),
      ].join(sep),
    );
  lines.splice(
    480,
    0,
    ["10480", "2026-11-05 13:37:00", "cust-666", "DE", "chargeback", "9999.99", "1"].join(sep),
  );
  return item(
    id,
    family,
    hint,
    lines,
    [{ text: lines[480], query: "chargeback" }],
    `${sep === "," ? "CSV" : "TSV"} export, 700 orders`,
    sep === "," ? "csv" : "tsv",
  );
}

function pytest(r) {
  const lines = [
    "============================= test session starts ==============================",
    "platform linux -- Python 3.11.7, pytest-8.3.4, pluggy-1.5.0",
    "rootdir: /srv/shop",
    "configfile: pyproject.toml",
    "collected 640 items",
    "",
  ];
  const mods = ["test_orders", "test_cart", "test_users", "test_refunds", "test_coupons", "test_stock"];
  for (const m of mods)
    for (let k = 0; k < 4; k++)
      lines.push(
        `tests/${m}.py::Test${m.slice(5, 6).toUpperCase()}${m.slice(6)}${k}::test_${r.pick(["creates", "rejects", "updates", "lists"])}_${k} PASSED${" ".repeat(r.int(1, 20))}[ ${String(r.int(1, 99)).padStart(2, " ")}%]`,
      );
  for (let i = 0; i < 600; i++)
    lines.push(
      `tests/${r.pick(mods)}.py::test_${r.pick(["create", "reject", "update", "list", "delete"])}_${r.pick(["order", "cart", "user", "coupon"])}_${i} PASSED${" ".repeat(r.int(1, 20))}[ ${String(Math.floor((i / 600) * 100)).padStart(2, " ")}%]`,
    );
  lines.splice(400, 0, "tests/test_refunds.py::test_refund_twice_is_rejected FAILED                [ 62%]");
  lines.push(
    "",
    "=================================== FAILURES ===================================",
    "________________________ test_refund_twice_is_rejected _________________________",
    "",
    "    def test_refund_twice_is_rejected():",
    "        order = make_order(amount=100)",
    "        refund(order)",
    ">       with pytest.raises(AlreadyRefunded):",
    "E       Failed: DID NOT RAISE <class 'shop.errors.AlreadyRefunded'>",
    "",
    "tests/test_refunds.py:41: Failed",
    "=========================== short test summary info ============================",
    "FAILED tests/test_refunds.py::test_refund_twice_is_rejected - Failed: DID NOT RAISE <class 'shop.errors.AlreadyRefunded'>",
    "======================== 1 failed, 623 passed in 12.41s ========================",
  );
  return item(
    "test-pytest-verbose",
    "test:pytest",
    "pytest -v",
    lines,
    [
      {
        text: "FAILED tests/test_refunds.py::test_refund_twice_is_rejected",
        query: "test_refund_twice_is_rejected",
      },
      { text: "E       Failed: DID NOT RAISE <class 'shop.errors.AlreadyRefunded'>", query: "DID NOT RAISE" },
    ],
    "pytest -v layout, 624 tests, one failure",
  );
}

function tap(r) {
  const lines = ["TAP version 13", "1..500"];
  for (let i = 1; i <= 500; i++) {
    if (i === 377) {
      lines.push(
        `not ok ${i} - parses a quoted CSV field with a newline`,
        "  ---",
        "  operator: deepEqual",
        "  expected: |-",
        "    [ 'a\\nb', 'c' ]",
        "  actual: |-",
        "    [ 'a', 'b', 'c' ]",
        "  at: Test.<anonymous> (/srv/csv/test/parse.js:88:5)",
        "  ...",
      );
      continue;
    }
    lines.push(
      `ok ${i} - ${r.pick(["parses", "writes", "escapes", "streams"])} ${r.pick(["a plain", "a quoted", "an empty", "a unicode"])} ${r.pick(["field", "row", "header", "file"])} #${i}`,
    );
  }
  lines.push("", "# tests 500", "# pass  499", "# fail  1");
  return item(
    "test-tap",
    "test:tap",
    "tape test/*.js",
    lines,
    [{ text: "not ok 377 - parses a quoted CSV field with a newline", query: "not ok 377" }],
    "TAP 13 stream, 500 tests, one failure",
  );
}

function cargoJson(r) {
  const lines = [];
  for (let i = 0; i < 220; i++)
    lines.push(
      JSON.stringify({
        reason: "compiler-artifact",
        package_id: `registry+https://github.com/rust-lang/crates.io-index#${r.pick(["serde", "tokio", "regex", "anyhow", "syn"])}@1.${r.int(0, 40)}.${r.int(0, 9)}`,
        manifest_path: `/root/.cargo/registry/src/index.crates.io-6f17d22bba15001f/crate-${i}/Cargo.toml`,
        target: {
          kind: ["lib"],
          crate_types: ["lib"],
          name: `crate_${i}`,
          src_path: `/root/.cargo/registry/src/crate-${i}/src/lib.rs`,
          edition: "2021",
          doctest: true,
          test: true,
        },
        profile: { opt_level: "0", debuginfo: 2, debug_assertions: true, overflow_checks: true, test: false },
        features: ["default", "std"],
        filenames: [`/srv/app/target/debug/deps/libcrate_${i}-${r.hex(16)}.rlib`],
        executable: null,
        fresh: true,
      }),
    );
  const errors = [];
  for (let e = 0; e < 9; e++) {
    const msg = `mismatched types: expected \`u${r.pick([32, 64])}\`, found \`usize\` (error ${e + 1})`;
    errors.push(msg);
    lines.splice(
      100 + e * 10,
      0,
      JSON.stringify({
        reason: "compiler-message",
        package_id: "path+file:///srv/app#app@0.1.0",
        target: { name: "app" },
        message: {
          rendered: `error[E0308]: ${msg}\n --> src/main.rs:${10 + e}:5\n`,
          $message_type: "diagnostic",
          children: [],
          code: { code: "E0308", explanation: null },
          level: "error",
          message: msg,
          spans: [
            {
              file_name: "src/main.rs",
              line_start: 10 + e,
              line_end: 10 + e,
              column_start: 5,
              column_end: 9,
              is_primary: true,
              text: [],
            },
          ],
        },
      }),
    );
  }
  lines.push(JSON.stringify({ reason: "build-finished", success: false }));
  return item(
    "ndjson-cargo",
    "ndjson:cargo-json",
    "cargo build --message-format=json",
    lines,
    errors
      .map((m) => ({ text: m.replace(/`/g, "\\u0060").includes("\\u") ? m : m, query: m }))
      .map((g) => ({ ...g, text: g.query })),
    "cargo --message-format=json stream, 220 artifacts, 9 errors",
  );
}

function eslintJson(r) {
  const files = [];
  for (let f = 0; f < 160; f++) {
    const messages = [];
    for (let m = 0, n = r.int(0, 3); m < n; m++)
      messages.push({
        ruleId: r.pick(["no-unused-vars", "prefer-const", "eqeqeq"]),
        severity: 1,
        message: r.pick([
          "'x' is assigned a value but never used.",
          "'total' is never reassigned. Use 'const' instead.",
          "Expected '===' and instead saw '=='.",
        ]),
        line: r.int(1, 300),
        column: r.int(1, 40),
        nodeType: "Identifier",
        endLine: r.int(1, 300),
        endColumn: r.int(1, 40),
      });
    if (f === 97)
      messages.push({
        ruleId: "no-undef",
        severity: 2,
        message: "'fetchOrdr' is not defined.",
        line: 212,
        column: 9,
        nodeType: "Identifier",
        endLine: 212,
        endColumn: 18,
      });
    files.push({
      filePath: `/srv/shop/src/${r.pick(["orders", "cart", "users"])}/file${f}.js`,
      messages,
      suppressedMessages: [],
      errorCount: f === 97 ? 1 : 0,
      fatalErrorCount: 0,
      warningCount: messages.length - (f === 97 ? 1 : 0),
      fixableErrorCount: 0,
      fixableWarningCount: 0,
      usedDeprecatedRules: [],
    });
  }
  return {
    ...item(
      "json-eslint",
      "json:eslint-json",
      "eslint -f json .",
      [JSON.stringify(files)],
      [{ text: "'fetchOrdr' is not defined.", query: "fetchOrdr" }],
      "eslint -f json, 160 files",
    ),
    // .txt keeps this repo's formatter off the item's bytes
    ext: "txt",
  };
}

function listing(r) {
  const lines = ["."];
  for (let d = 0; d < 30; d++) {
    const dir = `./${r.pick(["src", "lib", "test", "docs"])}/${r.pick(["orders", "cart", "users", "billing", "search"])}${d}`;
    lines.push(dir);
    for (let f = 0, n = r.int(5, 25); f < n; f++)
      lines.push(
        `${dir}/${r.pick(["index", "model", "routes", "service", "util", "types"])}${f}.${r.pick(["ts", "js", "json", "md"])}`,
      );
  }
  lines.splice(300, 0, "./src/billing/.env.production");
  return item(
    "text-find-listing",
    "text:find",
    "find .",
    lines,
    [{ text: "./src/billing/.env.production", query: ".env.production" }],
    "find . listing of a project tree",
  );
}

/** Every columnar, test-runner and machine-readable item. */
export function cliItems() {
  const r = (id) => rng(`cli-${id}`);
  return [
    psAux(r("ps")),
    dpkg(r("dpkg")),
    lsL(r("ls")),
    dfH(r("df")),
    dockerPs(r("docker")),
    kubectl(r("kubectl")),
    csv(r("csv"), ",", "table-csv", "table:csv", "cat orders.csv"),
    csv(r("tsv"), "\t", "table-tsv", "table:tsv", "cat orders.tsv"),
    pytest(r("pytest")),
    tap(r("tap")),
    cargoJson(r("cargo")),
    eslintJson(r("eslint")),
    listing(r("find")),
  ];
}
