// A real HTTP server on 127.0.0.1 under scripted, seeded traffic (bounded: 1,200 requests,
// sequential). It writes an access log (combined format), a JSON-lines access log and an
// application log with a real stack trace from a failing handler. The clock is injected so
// timestamps are fixed; everything else (status, bytes, routes, the stack) is what ran.
import { createServer, request } from "node:http";
import { gold, replaceAll, repoRoot, seeded } from "./util.mjs";

const START = Date.parse("2026-11-02T09:00:00.000Z");
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n, w = 2) => String(n).padStart(w, "0");
const clf = (ms) => {
  const d = new Date(ms);
  return `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
};
const AGENTS = ["curl/8.5.0", "Mozilla/5.0 (X11; Linux x86_64) Firefox/132.0", "k6/0.54.0 (https://k6.io/)"];

function priceOf(id) {
  const catalog = { 4821: undefined };
  // Order 4821 references a product that was deleted: the handler dereferences undefined.
  return id in catalog ? catalog[id].cents : 1000 + ((id * 37) % 9000);
}

function handler(state) {
  return (req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    const send = (status, body, type = "application/json") => {
      res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) });
      res.end(body);
    };
    try {
      if (url.pathname === "/health") return send(200, '{"ok":true}');
      if (url.pathname === "/static/app.js")
        return send(200, "console.log(1);\n".repeat(200), "text/javascript");
      if (url.pathname.startsWith("/api/orders/")) {
        const id = Number(url.pathname.split("/")[3]);
        if (!Number.isInteger(id)) return send(400, '{"error":"bad_id"}');
        return send(200, JSON.stringify({ id, total_cents: priceOf(id), status: "paid" }));
      }
      if (url.pathname === "/api/orders") {
        const limit = Number(url.searchParams.get("limit") ?? 20);
        const orders = [];
        for (let i = 0; i < limit; i++) {
          const id = 1000 + i;
          const order = {
            id,
            customer: `cus_${(id * 7919) % 100000}`,
            total_cents: priceOf(id),
            status: "paid",
          };
          if (id === 1000 + Math.floor(limit / 2) + 3)
            Object.assign(order, { status: "failed", error: "card_declined" });
          orders.push(order);
        }
        return send(200, JSON.stringify({ total: limit, orders }));
      }
      if (url.pathname === "/api/reports/export") {
        state.app.push(["WARN", "report export queue full (depth=64), shedding request"]);
        return send(503, '{"error":"unavailable"}');
      }
      if (url.pathname.startsWith("/api/products")) return send(200, '{"items":[]}');
      return send(404, '{"error":"not_found"}');
    } catch (err) {
      state.app.push(["ERROR", `unhandled error in ${req.method} ${url.pathname}\n${err.stack}`]);
      return send(500, '{"error":"internal"}');
    }
  };
}

function call(port, method, path) {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end();
  });
}

function script(count) {
  const rnd = seeded(20261102);
  const reqs = [];
  for (let i = 0; i < count; i++) {
    const r = rnd();
    let path = "/health";
    if (r < 0.35) path = `/api/products?page=${1 + Math.floor(rnd() * 40)}`;
    else if (r < 0.6) path = `/api/orders/${1000 + Math.floor(rnd() * 3000)}`;
    else if (r < 0.8) path = "/static/app.js";
    else if (r < 0.83) path = `/api/users/${Math.floor(rnd() * 500)}`;
    reqs.push({ method: "GET", path, agent: AGENTS[Math.floor(rnd() * AGENTS.length)] });
  }
  // Planted failures, in the middle of the run.
  reqs[611] = { method: "GET", path: "/api/orders/4821", agent: AGENTS[0] };
  reqs[742] = { method: "POST", path: "/api/reports/export", agent: AGENTS[2] };
  return reqs;
}

export async function serverItems() {
  const state = { app: [] };
  const server = createServer(handler(state));
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  const access = [];
  const jsonl = [];
  const stamp = (ms) => new Date(ms).toISOString();
  const app = [
    `${stamp(START - 900)} INFO  server listening on 127.0.0.1:8080 (pid 4242)`,
    `${stamp(START - 450)} INFO  connected to postgres://db:5432/shop`,
  ];
  const reqs = script(1200);
  let orders = "";
  try {
    for (const [i, r] of reqs.entries()) {
      const at = START + i * 173;
      const res = await call(port, r.method, r.path);
      const bytes = Buffer.byteLength(res.body);
      const ms = 2 + ((i * 7) % 23) + (res.status >= 500 ? 180 : 0);
      access.push(
        `127.0.0.1 - - [${clf(at)}] "${r.method} ${r.path} HTTP/1.1" ${res.status} ${bytes} "-" "${r.agent}"`,
      );
      jsonl.push(
        JSON.stringify({
          time: new Date(at).toISOString(),
          level: res.status >= 500 ? "error" : "info",
          method: r.method,
          path: r.path,
          status: res.status,
          bytes,
          duration_ms: ms,
        }),
      );
      const t = stamp(at + ms);
      for (const [level, msg] of state.app.splice(0)) app.push(`${t} ${level.padEnd(5)} ${msg}`);
      if (i % 100 === 99) app.push(`${t} INFO  served ${i + 1} requests, cache hit ratio 0.${80 + (i % 17)}`);
      if (i % 240 === 17) app.push(`${t} WARN  slow query on orders_by_customer took ${400 + i}ms`);
      if (i % 10 === 0) app.push(`${t} DEBUG pool stats active=${1 + (i % 4)} idle=${7 - (i % 4)} waiting=0`);
    }
    orders = (await call(port, "GET", "/api/orders?limit=240")).body;
  } finally {
    await new Promise((r) => server.close(r));
  }
  app.push(`${stamp(START + reqs.length * 173 + 500)} INFO  shutting down on SIGTERM`);
  const appLog = replaceAll(`${app.join("\n")}\n`, [
    [`file://${repoRoot}/`, "file:///srv/shop/"],
    [repoRoot, "/srv/shop"],
  ]);
  const failedLine = access.find((l) => l.includes('"GET /api/orders/4821 HTTP/1.1" 500'));
  const shedLine = access.find((l) => l.includes('"POST /api/reports/export HTTP/1.1" 503'));
  const parsed = JSON.parse(orders);
  const failed = parsed.orders.find((o) => o.status === "failed");
  return [
    {
      id: "log-http-access",
      kind: "log",
      hint: "tail -n 2000 /var/log/shop/access.log",
      ext: "log",
      source: "combined-format access log of a local node:http server under 1,200 scripted requests",
      content: `${access.join("\n")}\n`,
      gold: [gold(failedLine, "/api/orders/4821 500"), gold(shedLine, "/api/reports/export 503")],
    },
    {
      id: "log-http-app",
      kind: "log",
      hint: "journalctl -u shop",
      ext: "log",
      source: "application log of the same server: levels, periodic stats and one real stack trace",
      content: appLog,
      gold: [
        gold("unhandled error in GET /api/orders/4821", "unhandled error 4821"),
        gold("TypeError: Cannot read properties of undefined (reading 'cents')", "TypeError cents"),
        gold("report export queue full (depth=64), shedding request", "report export queue full"),
      ],
    },
    {
      id: "ndjson-http-access",
      kind: "ndjson",
      hint: "cat access.jsonl",
      ext: "ndjson",
      source: "JSON-lines access log of the same server run",
      content: `${jsonl.join("\n")}\n`,
      gold: [gold("/api/orders/4821", "/api/orders/4821 500", "the one 5xx request")],
    },
    {
      id: "json-http-orders",
      kind: "json",
      hint: "curl -s http://127.0.0.1:8080/api/orders?limit=240",
      ext: "json",
      source: "response body of GET /api/orders?limit=240 from the same server (one declined order)",
      content: `${orders}\n`,
      gold: [gold("card_declined", "card_declined failed"), gold(failed.customer, failed.customer)],
    },
  ];
}
