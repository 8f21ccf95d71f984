import { describe, expect, it } from "vitest";
import { spawnLines } from "./spawn.js";

const ECHO = `
process.stdin.setEncoding("utf8");
let buf = "";
process.stdin.on("data", (c) => {
  buf += c;
  let nl;
  while ((nl = buf.indexOf("\\n")) !== -1) {
    const msg = JSON.parse(buf.slice(0, nl));
    buf = buf.slice(nl + 1);
    if (msg.bye) { process.stderr.write("leaving"); process.exit(3); }
    process.stdout.write(JSON.stringify({ echo: msg }) + "\\n");
  }
});
`;

describe("spawnLines", () => {
  it("writes requests and reads framed replies in order", async () => {
    const p = spawnLines(process.execPath, ["-e", ECHO]);
    p.write(`${JSON.stringify({ n: 1 })}\n${JSON.stringify({ n: 2 })}\n`);
    expect(await p.next(2)).toEqual([{ echo: { n: 1 } }, { echo: { n: 2 } }]);
    p.write(`${JSON.stringify({ bye: true })}\n`);
    expect(await p.exit).toEqual({ code: 3, signal: null });
    await p.closed;
    expect(p.stderr()).toBe("leaving");
  });
  it("fails next() with stderr once the child is gone and no line came", async () => {
    const p = spawnLines(process.execPath, ["-e", "process.stderr.write('boom'); process.exit(1)"], {
      stdin: "ignore",
    });
    await expect(p.next(1, 10_000)).rejects.toThrow(/boom/);
  });
  it("keeps the lines written just before exit", async () => {
    const p = spawnLines(
      process.execPath,
      ["-e", "console.log(JSON.stringify({last:true})); process.exit(0)"],
      {
        stdin: "ignore",
      },
    );
    await p.closed;
    expect(p.lines).toEqual(['{"last":true}']);
    expect(p.values()).toEqual([{ last: true }]);
  });
});
