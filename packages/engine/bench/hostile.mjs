// The "hostile inputs" table (issue 18): each input is built and compressed (or narrowed with a
// hostile query) in a fresh child process, which reports its wall time and peak RSS, so one
// input's garbage never inflates the next one's figure. A child past `timeoutMs` is killed and
// reported as such. `dist` selects the engine build (this one, or --before=<dist/index.js>).
import { spawnSync } from "node:child_process";

/** name -> source of a function body returning { text, op, query? } (runs in the child). */
const HOSTILE = {
  "[ x250,000": `return { text: "[".repeat(250000) };`,
  '" x250,000': `return { text: '"'.repeat(250000) };`,
  "3 lines of 80,000 random letters": `let s = 7; const rnd = () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const line = () => { let t = ""; for (let i = 0; i < 80000; i++) t += String.fromCharCode(97 + Math.floor(rnd() * 26)); return t; };
    return { text: [line(), line(), line()].join("\\n") };`,
  "one 1 MB line, no whitespace": `return { text: "ab1-".repeat(262144) };`,
  "80,000 one-line JS functions": `return { text: Array.from({ length: 80000 }, (_, i) => \`export function handler\${i}(req) { if (req.x) { return req.y + \${i}; } return null; }\`).join("\\n") };`,
  "40,000 one-line JS functions": `return { text: Array.from({ length: 40000 }, (_, i) => \`export function handler\${i}(req) { if (req.x) { return req.y + \${i}; } return null; }\`).join("\\n") };`,
  "100,000 tiny units (a\\n\\n)": `return { text: "a\\n\\n".repeat(100000) };`,
  "150,000 log lines (scale reference)": `return { text: Array.from({ length: 150000 }, (_, i) => \`2026-11-02T09:00:\${String(i % 60).padStart(2, "0")}Z INFO GET /api/items/\${i} 200 \${i % 97}ms\`).join("\\n") };`,
  "narrow (a+)+$ on 150,000 units": `return { op: "narrow", query: "(a+)+$", text: Array.from({ length: 150000 }, (_, i) => \`2026-11-02T09:00:00Z INFO aaaaaaaaaaaaaaaaaaaaaaaa job \${i} done\`).join("\\n") };`,
  "narrow .*.*.*x on 150,000 units": `return { op: "narrow", query: ".*.*.*x", text: Array.from({ length: 150000 }, (_, i) => \`2026-11-02T09:00:00Z INFO aaaaaaaaaaaaaaaaaaaaaaaa job \${i} done\`).join("\\n") };`,
};

const CHILD = (dist, body) => `
  const engine = await import(${JSON.stringify(dist)});
  const input = (() => { ${body} })();
  const base = process.memoryUsage().rss;
  const t0 = performance.now();
  const r = input.op === "narrow" ? engine.narrow(input.text, input.query) : engine.compress(input.text);
  const ms = performance.now() - t0;
  process.stdout.write(JSON.stringify({ ms, bytes: input.text.length, baseRssMb: base / 1048576,
    peakRssMb: process.resourceUsage().maxRSS / 1024, result: r.reason ?? r.kind ?? (r.full ? "full" : "narrowed") }));`;

/** Runs every hostile input against `dist` (a file URL of an engine build). */
export function runHostile(dist, timeoutMs = 90_000) {
  return Object.entries(HOSTILE).map(([name, body]) => {
    const res = spawnSync(process.execPath, ["--input-type=module", "-e", CHILD(dist, body)], {
      encoding: "utf8",
      timeout: timeoutMs,
      maxBuffer: 1 << 20,
    });
    if (res.error || res.status !== 0) {
      const timedOut = res.error?.code === "ETIMEDOUT" || res.signal === "SIGTERM";
      return {
        name,
        ms: null,
        peakRssMb: null,
        result: timedOut ? `killed after ${timeoutMs / 1000} s` : `failed: ${res.stderr.slice(0, 120)}`,
      };
    }
    return { name, ...JSON.parse(res.stdout) };
  });
}
