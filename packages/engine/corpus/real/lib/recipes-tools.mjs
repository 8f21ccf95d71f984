// Compilers, linters, test runners, package managers and listings run on the pinned projects.
// `$TSC`, `$BIOME`, `$ESLINT`, `$GSON_CP` and `$PYTEST` are set by record.mjs (tool paths inside
// the scratch root). A recipe with `before` runs that first, unrecorded (a build, a checkout of an
// older test suite); `after` restores the checkout.

const r = (id, kind, project, cmd, ext, extra = {}) => ({ id, kind, project, cmd, hint: cmd, ext, ...extra });
// The test suite of express 4.21.2 run against the 5.x lib: an upgrade's failing tests. utils-merge
// is a module those tests require that 5.x no longer depends on.
const V4_TESTS = {
  before:
    "git checkout -q 4.21.2 -- test && npm install --no-save --no-audit --no-fund --loglevel=error utils-merge@1.0.1",
  after: "git reset -q && git checkout -q HEAD -- test && git clean -fdq test",
};
const MOCHA = "npx mocha --require test/support/env --check-leaks";
const ESLINT_RULES =
  "--rule 'no-var: error' --rule 'prefer-const: error' --rule 'eqeqeq: error' --rule 'no-unused-vars: error' --rule 'strict: off'";
const ESLINT_LOOSE = `$ESLINT --no-config-lookup ${ESLINT_RULES} --global require,module,process,__dirname,describe,it,before,after,beforeEach,afterEach,Buffer,setImmediate,console,exports`;
const JAVAC_SRC = "$(find gson/src/main/java -name '*.java' ! -name module-info.java | sort)";
// GsonBuildConfig is generated from a template by the Maven build; record.mjs writes it to ../gson-gen.
const JAVAC_ALL = `${JAVAC_SRC} ../gson-gen/GsonBuildConfig.java`;

export const toolRecipes = [
  // diagnostics
  r(
    "diag-express-tsc-checkjs",
    "diagnostics",
    "express",
    "$TSC --allowJs --checkJs --noEmit --target es2022 --module commonjs --moduleResolution node --typeRoots $TYPES index.js lib/*.js",
    "txt",
    { hint: "tsc" },
  ),
  r(
    "diag-vite-tsc-no-install",
    "diagnostics",
    "vite",
    "$TSC --noEmit --typeRoots $TYPES -p packages/vite/src/node",
    "txt",
    { hint: "tsc" },
  ),
  r(
    "diag-vite-tsc-pretty",
    "diagnostics",
    "vite",
    "$TSC --noEmit --pretty --typeRoots $TYPES -p packages/vite/src/client",
    "txt",
    { hint: "tsc" },
  ),
  r("diag-express-eslint-stylish", "diagnostics", "express", `${ESLINT_LOOSE} lib test`, "txt", {
    hint: "eslint",
  }),
  r("diag-express-eslint-examples", "diagnostics", "express", `${ESLINT_LOOSE} examples`, "txt", {
    hint: "eslint",
  }),
  r(
    "diag-vite-biome-lint",
    "diagnostics",
    "vite",
    "$BIOME lint --max-diagnostics=150 packages/vite/src/node",
    "txt",
    { hint: "biome lint" },
  ),
  r(
    "diag-express-biome-lint",
    "diagnostics",
    "express",
    "$BIOME lint --max-diagnostics=120 lib test",
    "txt",
    { hint: "biome lint" },
  ),
  r("diag-gson-javac-no-classpath", "diagnostics", "gson", `javac -d ../gson-out-a ${JAVAC_SRC}`, "txt", {
    hint: "javac",
  }),
  r(
    "diag-gson-javac-doclint",
    "diagnostics",
    "gson",
    `javac -Xlint:all -Xdoclint:all -Xmaxwarns 400 -cp $GSON_CP -d ../gson-out-x ${JAVAC_ALL}`,
    "txt",
    { hint: "javac" },
  ),
  r(
    "diag-semver-clippy-restriction",
    "diagnostics",
    "semver",
    "cargo clippy --offline --lib --tests -- -W clippy::restriction -W clippy::nursery -A clippy::blanket_clippy_restriction_lints",
    "txt",
    { hint: "cargo clippy", before: "cargo clean -q" },
  ),
  r(
    "diag-regex-syntax-clippy",
    "diagnostics",
    "regex",
    "cargo clippy --offline -- -W clippy::pedantic -W clippy::nursery",
    "txt",
    { hint: "cargo clippy", cwd: "regex-syntax", before: "cargo clean -q" },
  ),

  // test runs
  r("test-express-mocha-spec", "test", "express", `${MOCHA} --reporter spec test/ test/acceptance/`, "txt", {
    hint: "npm test",
  }),
  r(
    "test-express-v4-suite-spec",
    "test",
    "express",
    `${MOCHA} --reporter spec test/ test/acceptance/`,
    "txt",
    { hint: "npm test", ...V4_TESTS },
  ),
  r("test-express-v4-suite-dot", "test", "express", `${MOCHA} --reporter dot test/`, "txt", {
    hint: "mocha",
    ...V4_TESTS,
  }),
  r("test-express-tap", "test", "express", `${MOCHA} --reporter tap test/`, "txt", { hint: "mocha" }),
  r("test-flask-pytest-q", "test", "flask", "$PYTEST -q -p no:cacheprovider tests", "txt", {
    hint: "pytest",
  }),
  r(
    "test-flask-pytest-v-basic",
    "test",
    "flask",
    "$PYTEST -v -p no:cacheprovider tests/test_basic.py",
    "txt",
    { hint: "pytest" },
  ),
  r("test-flaskr-pytest", "test", "flask", "$PYTEST -v -p no:cacheprovider examples/tutorial/tests", "txt", {
    hint: "pytest",
    env: "PYTHONPATH=examples/tutorial:src",
  }),
  r("test-semver-cargo-test", "test", "semver", "cargo test --offline", "txt", { hint: "cargo test" }),
  r("test-regex-syntax-cargo-test", "test", "regex", "cargo test --offline --lib", "txt", {
    hint: "cargo test",
    cwd: "regex-syntax",
  }),
  r("test-cpython-unittest-json-v", "test", null, "python3 -m unittest -v test.test_json", "txt", {
    hint: "python -m unittest",
  }),
  r("test-cpython-unittest-argparse", "test", null, "python3 -m unittest -v test.test_argparse", "txt", {
    hint: "python -m unittest",
  }),
  r(
    "test-caveman-vitest-edit-ops",
    "test",
    "caveman",
    "NO_COLOR=1 npx vitest run --reporter=verbose",
    "txt",
    { hint: "vitest", cwd: "packages/edit-ops" },
  ),

  // JSON reports and API answers
  r(
    "json-express-eslint-report",
    "json",
    "express",
    `${ESLINT_LOOSE} -f json -o ../eslint-report.json lib; cat ../eslint-report.json`,
    "json",
    { hint: "eslint -f json" },
  ),
  r("json-express-npm-ls", "json", "express", "npm ls --json --all", "json", { hint: "npm ls --json" }),
  r("json-npm-view-express", "json", null, "npm view express --json", "json", { hint: "npm view --json" }),
  r("json-npm-view-vite", "json", null, "npm view vite@7.0.0 --json", "json", { hint: "npm view --json" }),
  r("json-npm-view-pino", "json", null, "npm view pino@10.4.0 --json", "json", { hint: "npm view --json" }),
  r("json-npm-view-vite-time", "json", null, "npm view vite time --json", "json", {
    hint: "npm view --json",
  }),
  r("json-express-lock-window", "json", "express", "head -n 2000 node_modules/.package-lock.json", "json", {
    hint: "Read",
  }),
  r("json-express-mocha-report", "json", "express", `${MOCHA} --reporter json test/`, "json", {
    hint: "mocha --reporter json",
    ...V4_TESTS,
  }),
  r("json-semver-cargo-metadata", "json", "semver", "cargo metadata --offline --format-version 1", "json", {
    hint: "cargo metadata",
  }),
  r(
    "json-vite-biome-report",
    "json",
    "vite",
    "$BIOME lint --reporter=json --max-diagnostics=200 packages/vite/src/node",
    "json",
    { hint: "biome lint --reporter=json" },
  ),
  r("json-pip-list", "json", null, "pip list --format=json", "json", { hint: "pip list --format=json" }),
  r("json-vite-package-json", "json", "vite", "cat packages/vite/package.json", "json", { hint: "Read" }),

  // NDJSON
  r(
    "ndjson-semver-clippy-json",
    "ndjson",
    "semver",
    "cargo clippy --offline --lib --tests --message-format=json -- -W clippy::restriction -A clippy::blanket_clippy_restriction_lints",
    "ndjson",
    { hint: "cargo clippy --message-format=json", before: "cargo clean -q" },
  ),
  r(
    "ndjson-regex-syntax-clippy-json",
    "ndjson",
    "regex",
    "cargo clippy --offline --message-format=json -- -W clippy::pedantic",
    "ndjson",
    { hint: "cargo clippy --message-format=json", cwd: "regex-syntax", before: "cargo clean -q" },
  ),
  r(
    "ndjson-regex-syntax-build-json",
    "ndjson",
    "regex",
    "cargo test --offline --no-run --message-format=json",
    "ndjson",
    { hint: "cargo build --message-format=json", cwd: "regex-syntax", before: "cargo clean -q" },
  ),
  r(
    "ndjson-vite-git-trace2",
    "ndjson",
    "vite",
    "GIT_TRACE2_EVENT=$PWD/../trace2.ndjson git log --stat -n 400 >/dev/null && GIT_TRACE2_EVENT=$PWD/../trace2.ndjson git status >/dev/null && GIT_TRACE2_EVENT=$PWD/../trace2.ndjson git gc -q; cat ../trace2.ndjson",
    "ndjson",
    { hint: "cat trace2.ndjson" },
  ),

  r(
    "ndjson-express-git-trace2",
    "ndjson",
    "express",
    "GIT_TRACE2_EVENT=$PWD/../trace2-express.ndjson git blame lib/response.js >/dev/null && GIT_TRACE2_EVENT=$PWD/../trace2-express.ndjson git log -p -n 30 >/dev/null && GIT_TRACE2_EVENT=$PWD/../trace2-express.ndjson git describe --tags --always >/dev/null; cat ../trace2-express.ndjson",
    "ndjson",
    { hint: "cat trace2.ndjson" },
  ),

  // terminal output (escapes)
  r("term-express-mocha-color", "terminal", "express", `${MOCHA} --color --reporter spec test/`, "txt", {
    hint: "npm test",
    ...V4_TESTS,
  }),
  r(
    "term-semver-clippy-color",
    "terminal",
    "semver",
    "cargo clippy --offline --color always --lib --tests -- -W clippy::restriction -A clippy::blanket_clippy_restriction_lints",
    "txt",
    { hint: "cargo clippy", before: "cargo clean -q" },
  ),
  r(
    "term-flask-pytest-color",
    "terminal",
    "flask",
    "$PYTEST --color=yes -p no:cacheprovider tests/test_basic.py tests/test_blueprints.py",
    "txt",
    { hint: "pytest" },
  ),
  r("term-vite-git-log-color", "terminal", "vite", "git log --stat --color=always -n 40", "txt", {
    hint: "git log --stat",
  }),
  r(
    "term-express-ls-color",
    "terminal",
    "express",
    "ls --color=always -la node_modules node_modules/.bin",
    "txt",
    { hint: "ls -la" },
  ),
  r(
    "term-npm-install-pty",
    "terminal",
    "scratch",
    "script -qec 'npm install --no-audit --no-fund --progress=true --loglevel=http mime@3 debug@4 commander@12 yargs@17 chalk@5' /dev/null",
    "txt",
    {
      hint: "npm install",
      before: "rm -rf npmproj && mkdir npmproj && cd npmproj && npm init -y >/dev/null",
      cwd: "npmproj",
    },
  ),
  r("term-caveman-vitest-color", "terminal", "caveman", "FORCE_COLOR=1 npx vitest run", "txt", {
    hint: "vitest",
    cwd: "packages/edit-ops",
  }),
  r("term-flask-grep-color", "terminal", "flask", "grep -rn --color=always 'def ' src/flask", "txt", {
    hint: "grep -rn",
  }),

  // tables and listings
  // ps and df would list the recording machine's own processes and mounts: listings of files instead.
  r("table-ls-la-usr-lib", "table", null, "ls -la /usr/lib/x86_64-linux-gnu", "txt"),
  r(
    "table-unzip-l-guava",
    "table",
    null,
    "unzip -l $HOME/.m2/repository/com/google/guava/guava/33.6.0-jre/guava-33.6.0-jre.jar",
    "txt",
    { hint: "unzip -l" },
  ),
  r("table-express-ls-la", "table", "express", "ls -la node_modules", "txt"),
  r("table-express-ls-laR", "table", "express", "ls -laR lib test", "txt"),
  r("table-pip-list", "table", null, "pip list", "txt"),
  r("table-express-npm-ls", "table", "express", "npm ls --all", "txt"),
  r(
    "table-apt-cache-show",
    "table",
    null,
    "apt-cache show redis-server postgresql-15 git sqlite3 openjdk-17-jdk-headless",
    "txt",
  ),
  r("table-dpkg-l", "table", null, "dpkg -l", "txt"),
  r("table-vite-shortlog", "table", "vite", "git shortlog -sne HEAD", "txt"),
  r(
    "table-vite-log-columns",
    "table",
    "vite",
    "git log -n 400 --date=short --format='%h  %ad  %<(24,trunc)%an  %s'",
    "txt",
    { hint: "git log --format" },
  ),
  r("table-vite-du", "table", "vite", "du -a packages/vite/src | sort -k2", "txt"),
  r(
    "table-express-nyc-text",
    "table",
    "express",
    "npx nyc --exclude examples --exclude test --exclude benchmarks --reporter=text mocha --require test/support/env --reporter dot test/ 2>/dev/null | sed -n '/^---/,$p'",
    "txt",
    { hint: "nyc report" },
  ),

  // HTML pages tools write
  r("html-gson-javadoc-gson", "html", "gson", "cat ../gson-doc/com/google/gson/Gson.html", "html", {
    hint: "Read",
    before: `javadoc -quiet -Xdoclint:none -cp $GSON_CP -d ../gson-doc ${JAVAC_ALL} >/dev/null 2>&1 || true`,
  }),
  r("html-gson-javadoc-builder", "html", "gson", "cat ../gson-doc/com/google/gson/GsonBuilder.html", "html", {
    hint: "Read",
  }),
  r(
    "html-gson-javadoc-jsonreader",
    "html",
    "gson",
    "cat ../gson-doc/com/google/gson/stream/JsonReader.html",
    "html",
    { hint: "Read" },
  ),
  r(
    "html-gson-javadoc-package",
    "html",
    "gson",
    "cat ../gson-doc/com/google/gson/package-summary.html",
    "html",
    { hint: "Read" },
  ),
  r("html-gson-javadoc-index", "html", "gson", "cat ../gson-doc/index-all.html", "html", { hint: "Read" }),
  r(
    "html-pydoc-flask-app",
    "html",
    "flask",
    "cd .. && PYTHONPATH=flask/src python3 -m pydoc -w flask.app >/dev/null && cat flask.app.html",
    "html",
    { hint: "Read" },
  ),
  r(
    "html-pydoc-requests-sessions",
    "html",
    null,
    "python3 -m pydoc -w requests.sessions >/dev/null && cat requests.sessions.html",
    "html",
    { hint: "Read" },
  ),
  r(
    "html-docutils-flask-quickstart",
    "html",
    "flask",
    "python3 -m docutils --report=5 docs/quickstart.rst",
    "html",
    { hint: "Read" },
  ),
  r("html-docutils-flask-changes", "html", "flask", "python3 -m docutils --report=5 CHANGES.rst", "html", {
    hint: "Read",
  }),
  r("html-express-nyc-response", "html", "express", "cat coverage/express/lib/response.js.html", "html", {
    hint: "Read",
    before:
      "npx nyc --exclude examples --exclude test --exclude benchmarks --reporter=html mocha --require test/support/env --reporter dot test/ >/dev/null 2>&1 || true",
  }),
  r("html-express-nyc-index", "html", "express", "cat coverage/express/lib/index.html", "html", {
    hint: "Read",
  }),
];
