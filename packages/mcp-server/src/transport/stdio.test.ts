// The transport when the client stops reading answers: held lines, then (after `stallMs` without
// progress) shedding with cave_overloaded answers, and EOF seen and acted on while output is
// blocked.
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { HardenedStdioTransport } from "./stdio.js";

type Msg = { id?: unknown; result?: unknown; error?: { data?: { code?: string } } };

function rig(stallMs: number) {
  const stdin = new PassThrough();
  const got: string[] = [];
  let stuck: Array<() => void> | undefined = [];
  const stdout = new Writable({
    highWaterMark: 8,
    write(chunk: Buffer, _enc, cb) {
      got.push(chunk.toString("utf8"));
      if (stuck) stuck.push(() => cb());
      else cb();
    },
  });
  const closed: string[] = [];
  const notes: string[] = [];
  const t = new HardenedStdioTransport({
    stdin,
    stdout,
    stallMs,
    onInputClosed: (why) => closed.push(why),
  });
  t.onerror = (e) => notes.push(e.message);
  t.onmessage = (m) => {
    const id = (m as { id?: number }).id;
    if (id !== undefined) void t.send({ jsonrpc: "2.0", id, result: {} });
  };
  const answers = () =>
    got
      .join("")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Msg);
  const release = () => {
    const cbs = stuck ?? [];
    stuck = undefined;
    for (const cb of cbs) cb();
  };
  return { stdin, t, answers, release, closed, notes };
}

const ping = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("HardenedStdioTransport with a client that does not read", () => {
  it("sheds requests once output has stalled, and answers them cave_overloaded when it flows", async () => {
    // A stall of 1 s, so a loaded CI machine cannot pass it while the requests are still written.
    const { stdin, t, answers, release, notes } = rig(1000);
    await t.start();
    stdin.write(ping(1));
    await sleep(10);
    for (let i = 2; i <= 5000; i++) stdin.write(ping(i));
    await sleep(20);
    expect(stdin.isPaused()).toBe(true);
    await sleep(1300); // past stallMs: reading resumes, the rest is shed
    expect(stdin.readableLength).toBe(0);
    expect(notes.some((n) => n.includes("cave_overloaded"))).toBe(true);
    release();
    await sleep(200);
    const all = answers();
    const ok = all.filter((m) => !m.error);
    const shed = all.filter((m) => m.error);
    expect(ok.map((m) => m.id)).toEqual(Array.from({ length: ok.length }, (_, i) => i + 1));
    expect(ok.length).toBeGreaterThan(1);
    // The first 1,000 shed requests are answered; the rest are counted in one note.
    expect(shed).toHaveLength(1000);
    expect(
      notes.some((n) => n.endsWith(`${5000 - ok.length - 1000} more shed request(s) could not be answered`)),
    ).toBe(true);
    expect(shed.every((m) => m.error?.data?.code === "cave_overloaded")).toBe(true);
    expect(shed.map((m) => m.id)).toEqual(Array.from({ length: shed.length }, (_, i) => ok.length + 1 + i));
    await t.close();
  });

  it("sees EOF while output is blocked and closes its input after the stall", async () => {
    const { stdin, t, closed, notes } = rig(100);
    await t.start();
    stdin.write(ping(1));
    await sleep(10); // its answer is stuck: output is blocked from here on
    for (let i = 2; i <= 50; i++) stdin.write(ping(i));
    stdin.end();
    await sleep(50);
    expect(closed).toEqual([]);
    await sleep(150);
    expect(closed).toEqual(["eof"]);
    expect(notes.some((n) => n.startsWith("stdin ended while the client read no answers"))).toBe(true);
  });

  it("ignores a stray response with one short note, never handing it on", async () => {
    const { stdin, t, notes } = rig(100);
    const seen: unknown[] = [];
    t.onmessage = (m) => seen.push(m);
    await t.start();
    stdin.write(`{"jsonrpc":"2.0","id":7,"result":{"pad":"${"x".repeat(100_000)}"}}\n`);
    await sleep(20);
    expect(seen).toEqual([]);
    expect(notes).toEqual(["ignored a response (id 7) to no request of this server"]);
  });

  it("while shedding, answers a batch with one array and hands on a response to its own request", async () => {
    const { stdin, t, answers, release } = rig(100);
    const seen: Array<{ id?: unknown; result?: unknown }> = [];
    t.onmessage = (m) => {
      const msg = m as { id?: number | string; method?: string; result?: unknown };
      if (msg.method === undefined) seen.push(msg);
      else if (msg.id !== undefined) void t.send({ jsonrpc: "2.0", id: msg.id, result: {} });
    };
    await t.start();
    // The server asks the client something; its answer will arrive while requests are shed.
    void t.send({ jsonrpc: "2.0", id: "srv-1", method: "roots/list" });
    await sleep(10);
    for (let i = 1; i <= 3000; i++) stdin.write(ping(i));
    await sleep(20);
    await sleep(200); // past stallMs: shedding
    stdin.write(
      '[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","id":"b2","method":"ping"}]\n',
    );
    stdin.write('{"result":{"roots":[]},"jsonrpc":"2.0","id":"srv-1"}\n');
    // Lines that would be answered (invalid) or make the server write are not, while shedding.
    for (let i = 0; i < 100; i++)
      stdin.write('{}\n{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}\n');
    await sleep(20);
    release();
    await sleep(200);
    const raw = answers() as unknown[];
    // The client's response was handed on, never answered with an error.
    expect(seen).toEqual([{ jsonrpc: "2.0", id: "srv-1", result: { roots: [] } }]);
    expect(raw.some((m) => (m as Msg).id === "srv-1" && (m as Msg).error)).toBe(false);
    // The batch's requests were not run and are answered, as a batch: one array.
    const arrays = raw.filter((m) => Array.isArray(m)) as Msg[][];
    expect(arrays).toHaveLength(1);
    expect(arrays[0]!.map((m) => m.id)).toEqual(["b1", "b2"]);
    expect(arrays[0]!.every((m) => m.error?.data?.code === "cave_overloaded")).toBe(true);
    expect(raw.filter((m) => !Array.isArray(m) && (m as Msg).id === null)).toEqual([]);
    await t.close();
  });
});
