// Logs of real programs driven with real traffic on loopback (Debian's redis-server and
// PostgreSQL, Flask's tutorial app under Werkzeug, an Express app with morgan and pino, Python's
// http.server, npm), and stack traces real libraries throw. Each `run` starts what it needs,
// drives it, stops it and returns the text; `cmd` says what was run, for the manifest.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureDir, sh, sleep, start, waitFor } from "./shell.mjs";

const up = (port) => () => sh(`(exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo up`).includes("up");
const curl = (url, extra = "") => `curl -s -o /dev/null ${extra} '${url}'`;

async function redisLog(ctx, { monitor }) {
  const dir = ensureDir(join(ctx.root, "redis"));
  const log = join(dir, "redis.log");
  const stop = start(
    `redis-server --port 16379 --bind 127.0.0.1 --save '' --appendonly no --loglevel verbose --logfile ${log} --dir ${dir}`,
  );
  await waitFor(up(16379));
  const mon = monitor ? start("redis-cli -p 16379 monitor", { logFile: join(dir, "monitor.log") }) : null;
  await sleep(300);
  sh("redis-benchmark -p 16379 -q -n 400 -c 4 -t set,get,incr,lpush,lpop,hset,sadd >/dev/null");
  sh(
    "for i in $(seq 1 40); do redis-cli -p 16379 SET session:$i user$i EX 60 >/dev/null; redis-cli -p 16379 GET session:$((i*7)) >/dev/null; done",
  );
  sh(
    "redis-cli -p 16379 HSET cart:42 sku-1 2 sku-9 1 >/dev/null; redis-cli -p 16379 LPUSH jobs a b c >/dev/null; redis-cli -p 16379 INCRBY counter notanumber >/dev/null; redis-cli -p 16379 CONFIG SET maxmemory 1mb >/dev/null; redis-cli -p 16379 DEBUG SLEEP 0 >/dev/null; redis-cli -p 16379 BGSAVE >/dev/null; sleep 1; redis-cli -p 16379 SHUTDOWN NOSAVE >/dev/null",
  );
  await sleep(500);
  if (mon) await mon();
  await stop();
  return readFileSync(monitor ? join(dir, "monitor.log") : log, "utf8");
}

async function postgresLog(ctx, { errors }) {
  const dir = join(ctx.root, errors ? "pg-b" : "pg-a");
  ensureDir(dir);
  sh(
    `chown postgres ${dir} && su postgres -c "/usr/lib/postgresql/15/bin/initdb -D ${dir}/data -A trust -U postgres" >/dev/null`,
  );
  const conf = errors
    ? "-c log_min_duration_statement=0 -c log_checkpoints=on -c log_connections=on -c log_disconnections=on -c log_lock_waits=on -c deadlock_timeout=200ms"
    : "-c log_statement=all";
  sh(
    `su postgres -c "/usr/lib/postgresql/15/bin/pg_ctl -D ${dir}/data -l ${dir}/pg.log -o \\"-p 15432 -k ${dir} -c listen_addresses=127.0.0.1 -c log_line_prefix='%m [%p] %q%u@%d ' ${conf}\\" -w start" >/dev/null`,
  );
  const psql = (q) => sh(`psql -h 127.0.0.1 -p 15432 -U postgres -c "${q}" shop`);
  sh("createdb -h 127.0.0.1 -p 15432 -U postgres shop");
  sh("pgbench -h 127.0.0.1 -p 15432 -U postgres -i -s 1 -q shop >/dev/null");
  sh(`pgbench -h 127.0.0.1 -p 15432 -U postgres -c 3 -t ${errors ? 60 : 40} shop >/dev/null`);
  if (errors) {
    psql("select * from orders");
    psql("insert into pgbench_branches values (1, 0, 'dup')");
    psql("select 1/0");
    psql("vacuum analyze");
    psql("checkpoint");
  }
  const table = psql("select aid, bid, abalance, filler from pgbench_accounts where aid <= 400 order by aid");
  sh(`su postgres -c "/usr/lib/postgresql/15/bin/pg_ctl -D ${dir}/data -m fast -w stop" >/dev/null`);
  ctx.extra["table-psql-accounts"] = table;
  return readFileSync(join(dir, "pg.log"), "utf8");
}

async function flaskrLog(ctx) {
  const app = join(ctx.dirs.flask, "examples", "tutorial");
  const inst = ensureDir(join(ctx.root, "flaskr-instance"));
  const flask = `python3 -m flask --app flaskr`;
  const envs = { PYTHONPATH: `${join(ctx.dirs.flask, "src")}:${app}`, FLASK_INSTANCE_PATH: inst };
  const log = join(ctx.root, "flaskr.log");
  // First run before init-db: the requests fail with the traceback Flask logs.
  const stop1 = start(`${flask} run -p 15000`, { cwd: app, extraEnv: envs, logFile: log });
  await waitFor(up(15000));
  sh(
    `${curl("http://127.0.0.1:15000/")}; ${curl("http://127.0.0.1:15000/auth/register", "-d username=ana -d password=pw")}`,
  );
  await stop1();
  sh(`${flask} init-db`, { cwd: app, extraEnv: envs });
  const stop2 = start(`${flask} run -p 15000`, { cwd: app, extraEnv: envs, logFile: log });
  await waitFor(up(15000));
  const jar = join(ctx.root, "jar.txt");
  const base = "http://127.0.0.1:15000";
  sh(
    `${curl(`${base}/auth/register`, "-d username=ana -d password=pw")}; ${curl(`${base}/auth/login`, `-c ${jar} -d username=ana -d password=pw`)}`,
  );
  for (let i = 1; i <= 60; i++) {
    sh(
      `${curl(`${base}/create`, `-b ${jar} -d title=Post${i} -d body=Body${i}`)}; ${curl(`${base}/`, `-b ${jar}`)}; ${curl(`${base}/${i}/update`, `-b ${jar}`)}`,
    );
    if (i % 9 === 0)
      sh(`${curl(`${base}/${i + 500}/update`, `-b ${jar}`)}; ${curl(`${base}/static/missing-${i}.css`)}`);
  }
  sh(
    `${curl(`${base}/auth/login`, "-d username=ana -d password=wrong")}; ${curl(`${base}/7/delete`, `-b ${jar} -X POST`)}; ${curl(`${base}/7/delete`, "-X POST")}`,
  );
  await stop2();
  ctx.extra["table-sqlite-posts"] = sh(
    `sqlite3 -header -column ${join(app, "instance", "flaskr.sqlite")} "select id, author_id, created, title from post order by id"`,
  );
  return readFileSync(log, "utf8");
}

const EXPRESS_APP = `
const express = require(process.env.EXPRESS_DIR);
const morgan = require(process.env.EXPRESS_DIR + "/node_modules/morgan");
const pino = process.env.PINO ? require(process.env.PINO)() : null;
const app = express();
if (pino) app.use((req, res, next) => { const t = Date.now(); res.on("finish", () => pino.info({ method: req.method, url: req.url, status: res.statusCode, ms: Date.now() - t, ua: req.get("user-agent") }, "request")); next(); });
else app.use(morgan("combined"));
app.use(express.json());
const items = new Map();
app.get("/api/items", (req, res) => res.json([...items.values()]));
app.post("/api/items", (req, res) => { if (!req.body || !req.body.name) { if (pino) pino.warn({ body: req.body }, "rejected item without name"); return res.status(400).json({ error: "name required" }); } const id = items.size + 1; items.set(id, { id, ...req.body }); res.status(201).json({ id }); });
app.get("/api/items/:id", (req, res) => { const it = items.get(Number(req.params.id)); if (!it) return res.status(404).end(); res.json(it); });
app.get("/api/report", (req, res) => { const total = [...items.values()].reduce((n, it) => n + it.price.amount, 0); res.json({ total }); });
app.listen(15001, "127.0.0.1");
`;

async function expressLog(ctx, { pino }) {
  const file = join(ctx.root, "express-app.cjs");
  writeFileSync(file, EXPRESS_APP);
  const log = join(ctx.root, pino ? "express-pino.log" : "express-morgan.log");
  const extraEnv = {
    EXPRESS_DIR: ctx.dirs.express,
    NODE_ENV: "development",
    ...(pino ? { PINO: join(ctx.tools, "node_modules", "pino") } : {}),
  };
  const stop = start(`node ${file}`, { extraEnv, logFile: log });
  await waitFor(up(15001));
  const base = "http://127.0.0.1:15001";
  for (let i = 1; i <= 150; i++) {
    const body = i % 23 === 0 ? "{}" : `{"name":"item${i}","price":{"amount":${i}}}`;
    sh(
      `${curl(`${base}/api/items`, `-H 'content-type: application/json' -d '${body}' -A 'shop-client/2.1'`)}; ${curl(`${base}/api/items/${i % 31 === 0 ? 9999 : i}`, "-A 'Mozilla/5.0 (X11; Linux x86_64)'")}`,
    );
    if (i % 50 === 0)
      sh(`${curl(`${base}/api/items`)}; ${curl(`${base}/api/report`)}; ${curl(`${base}/favicon.ico`)}`);
  }
  await stop();
  return readFileSync(log, "utf8");
}

async function httpServerLog(ctx) {
  const log = join(ctx.root, "http-server.log");
  const stop = start("python3 -u -m http.server 15002 --bind 127.0.0.1", {
    cwd: ctx.dirs.vite,
    logFile: log,
  });
  await waitFor(up(15002));
  const files = sh("git ls-files docs | head -n 300", { cwd: ctx.dirs.vite }).trim().split("\n");
  const urls = files.map((f) => `http://127.0.0.1:15002/${f}`);
  for (let i = 0; i < urls.length; i += 20)
    sh(
      urls
        .slice(i, i + 20)
        .map((u) => curl(u))
        .join("; "),
    );
  sh(
    `${curl("http://127.0.0.1:15002/docs/missing.md")}; ${curl("http://127.0.0.1:15002/../etc/passwd")}; ${curl("http://127.0.0.1:15002/", "-X POST")}`,
  );
  await stop();
  return readFileSync(log, "utf8");
}

async function expressBadJson(ctx) {
  const file = join(ctx.root, "express-app.cjs");
  writeFileSync(file, EXPRESS_APP);
  const log = join(ctx.root, "express-bad-json.log");
  const stop = start(`node ${file}`, {
    extraEnv: { EXPRESS_DIR: ctx.dirs.express, NODE_ENV: "development" },
    logFile: log,
  });
  await waitFor(up(15001));
  for (const body of ['{"name": "a",}', '{"name": "b", "price": {"amount": 1}', "name=c"])
    sh(curl("http://127.0.0.1:15001/api/items", `-H 'content-type: application/json' --data '${body}'`));
  sh(
    `${curl("http://127.0.0.1:15001/api/items", "-H 'content-type: application/json' -d '{\"name\":\"x\"}'")}; ${curl("http://127.0.0.1:15001/api/report")}`,
  );
  await stop();
  return readFileSync(log, "utf8");
}

const log = (id, project, cmd, run, hint) => ({ id, kind: "log", project, cmd, hint, ext: "log", run });
const trace = (id, project, cmd, ext = "txt", extra = {}) => ({
  id,
  kind: "stacktrace",
  project,
  cmd,
  hint: cmd.split(" ")[0],
  ext,
  ...extra,
});

export const serviceRecipes = [
  log(
    "log-redis-verbose",
    null,
    "redis-server --loglevel verbose, redis-benchmark and redis-cli traffic",
    (c) => redisLog(c, { monitor: false }),
    "cat /var/log/redis/redis-server.log",
  ),
  log(
    "log-redis-monitor",
    null,
    "redis-cli monitor during redis-benchmark and redis-cli traffic",
    (c) => redisLog(c, { monitor: true }),
    "redis-cli monitor",
  ),
  log(
    "log-postgres-statements",
    null,
    "postgres 15 with log_statement=all under pgbench",
    (c) => postgresLog(c, { errors: false }),
    "tail -n 3000 /var/log/postgresql/postgresql-15-main.log",
  ),
  log(
    "log-postgres-durations",
    null,
    "postgres 15 with log_min_duration_statement=0, connections, checkpoints, failing statements",
    (c) => postgresLog(c, { errors: true }),
    "cat postgresql.log",
  ),
  log(
    "log-flaskr-werkzeug",
    "flask",
    "flask --app flaskr run (tutorial app) before and after init-db, driven with curl",
    flaskrLog,
    "flask run",
  ),
  log(
    "log-express-morgan",
    "express",
    "an Express app with morgan('combined') driven with curl",
    (c) => expressLog(c, { pino: false }),
    "node server.js",
  ),
  log(
    "log-python-http-server",
    "vite",
    "python3 -m http.server serving the vite checkout, 300+ requests",
    httpServerLog,
    "python3 -m http.server",
  ),
  {
    id: "log-npm-install-silly",
    kind: "log",
    project: "scratch",
    cmd: "npm install --loglevel silly --no-audit --no-fund express@4 pino@9",
    hint: "npm install --loglevel silly",
    ext: "log",
    before: "rm -rf npmsilly && mkdir npmsilly && cd npmsilly && npm init -y >/dev/null",
    cwd: "npmsilly",
  },
  {
    id: "log-dpkg",
    kind: "log",
    project: null,
    cmd: "tail -n 2500 /var/log/dpkg.log",
    hint: "tail /var/log/dpkg.log",
    ext: "log",
  },
  {
    id: "log-apt-history",
    kind: "log",
    project: null,
    cmd: "cat /var/log/apt/history.log",
    hint: "cat /var/log/apt/history.log",
    ext: "log",
  },
  {
    id: "log-mvn-offline",
    kind: "log",
    project: "gson",
    cmd: "mvn -o -B compile",
    hint: "mvn compile",
    ext: "log",
  },
  {
    id: "log-express-node-debug",
    kind: "log",
    project: "express",
    cmd: "NODE_DEBUG=http,net npx mocha --require test/support/env --reporter dot test/app.router.js test/res.send.js",
    hint: "NODE_DEBUG=http,net npm test",
    ext: "log",
  },
  {
    id: "ndjson-express-pino",
    kind: "ndjson",
    project: "express",
    cmd: "an Express app logging with pino, driven with curl",
    hint: "node server.js",
    ext: "ndjson",
    run: (c) => expressLog(c, { pino: true }),
  },

  trace(
    "trace-python-requests-refused",
    null,
    "python3 -c \"import requests; requests.get('http://127.0.0.1:9/health', timeout=2)\"",
  ),
  trace(
    "trace-python-deepcopy-recursion",
    null,
    'python3 -c "import copy; x=[]; y=x\nfor _ in range(5000): y.append([]); y=y[0]\ncopy.deepcopy(x)"',
  ),
  trace(
    "trace-python-flaskr-no-db",
    "flask",
    "python3 -c \"from flaskr import create_app; app=create_app({'TESTING': True, 'DATABASE': '/tmp/none/x.db'}); app.test_client().get('/')\"",
    "txt",
    { cwd: "examples/tutorial", env: "PYTHONPATH=../../src:." },
  ),
  trace(
    "trace-python-pydantic",
    null,
    "python3 -c \"import pydantic, json\nclass Item(pydantic.BaseModel):\n  id: int\n  price: float\n  tags: list[str]\nItem.model_validate_json(json.dumps({'id': 'x', 'price': 'free', 'tags': [1, 2]}))\"",
  ),
  trace(
    "trace-python-sympify",
    null,
    "python3 -c \"import sympy; sympy.sympify('total = price * (1 + tax')\"",
  ),
  trace(
    "trace-python-boto3-no-credentials",
    null,
    "env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null AWS_EC2_METADATA_DISABLED=true python3 -c \"import boto3; boto3.client('s3', region_name='eu-west-1').list_buckets()\"",
  ),
  {
    id: "trace-node-express-bad-json",
    kind: "stacktrace",
    project: "express",
    cmd: "an Express app (express.json()) sent malformed JSON bodies; Express's default handler prints each stack",
    hint: "node server.js",
    ext: "txt",
    run: expressBadJson,
  },
  trace("trace-node-vite-unbuilt", "vite", "node packages/vite/bin/vite.js build"),
  trace("trace-java-gson-malformed", "gson", "java -cp ../gson-out-b:../traces GsonTraces malformed"),
  trace("trace-java-gson-cycle", "gson", "java -Xss512k -cp ../gson-out-b:../traces GsonTraces cycle"),
  trace("trace-java-gson-reflection", "gson", "java -cp ../gson-out-b:../traces GsonTraces reflection"),
  trace("trace-java-gson-adapter", "gson", "java -cp ../gson-out-b:../traces GsonTraces adapter"),
];
