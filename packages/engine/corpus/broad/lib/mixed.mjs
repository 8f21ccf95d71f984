// Mixed content for the broad corpus: a CI job transcript that is not a log as a whole (shell
// steps, an environment dump, an `npm ls` tree, a JSON config) with a server log section in the
// middle that is. Gold: the planted log error and one line of the surrounding text.
import { rng, stamp } from "./rand.mjs";

/** The mixed items. */
export function mixedItems() {
  const r = rng("mixed-ci");
  const out = ["$ export CI=true NODE_ENV=test", "$ env | sort"];
  for (let i = 0; i < 120; i++)
    out.push(
      `${["APP", "DB", "CACHE", "QUEUE", "FEATURE"][i % 5]}_${["HOST", "PORT", "USER", "TIMEOUT", "POOL", "FLAG"][i % 6]}_${i}=${r.hex(6 + (i % 9))}`,
    );
  out.push("$ npm ls --depth=1", "shop@2.4.1 /srv/shop");
  for (let i = 0; i < 160; i++)
    out.push(
      `${i % 7 === 6 ? "└──" : "├──"} ${["express", "pg", "ioredis", "zod", "pino", "undici", "ws", "jose"][i % 8]}-${r.hex(3)}@${r.int(1, 9)}.${r.int(0, 30)}.${r.int(0, 9)}`,
    );
  out.push(
    "$ cat config/ci.json",
    JSON.stringify({ retries: 3, shards: 4, services: ["db", "cache", "queue"], timeoutMs: 900000 }, null, 2),
  );
  out.push("$ docker compose logs api --no-color");
  let t = Date.UTC(2026, 10, 2, 9, 0, 0);
  const planted = `${stamp(t + 155_000, "iso-ms")} ERROR [api] payment provider timeout after 30000ms order=48213`;
  for (let i = 0; i < 320; i++) {
    t += r.int(100, 900);
    if (i === 200) out.push(planted);
    out.push(
      `${stamp(t, "iso-ms")} INFO  [api] ${r.pick(["GET", "POST"])} /v1/${r.pick(["orders", "carts", "users"])}/${r.int(1, 9999)} ${r.pick([200, 200, 201, 204])} ${r.int(1, 90)}ms`,
    );
  }
  out.push(
    "$ npm test -- --reporter=dot",
    "",
    "  640 passing (12s)",
    "  1 pending",
    "",
    "$ echo done",
    "done",
  );
  const gold = [
    { text: planted, query: "payment provider timeout" },
    { text: "shop@2.4.1 /srv/shop", query: "shop@2.4.1" },
  ];
  return [
    {
      id: "mixed-ci-transcript",
      kind: "text",
      family: "mixed:ci-transcript",
      hint: "gh run view --log",
      ext: "txt",
      source:
        "seeded CI transcript: env dump, npm ls tree, JSON config, a 320-line server log section, test summary",
      content: `${out.join("\n")}\n`,
      gold,
    },
  ];
}
