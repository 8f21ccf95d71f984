import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { LineWriter } from "./writer.js";

/** A slow sink with a tiny buffer, so nearly every write hits backpressure. */
function slowSink() {
  const got: string[] = [];
  let maxBuffered = 0;
  const sink: Writable = new Writable({
    highWaterMark: 16,
    write(chunk: Buffer, _enc, cb) {
      // Everything the writer handed over and the sink has not yet taken is in writableLength.
      maxBuffered = Math.max(maxBuffered, sink.writableLength);
      got.push(chunk.toString("utf8"));
      setImmediate(cb);
    },
  });
  return { sink, got, max: () => maxBuffered };
}

describe("LineWriter", () => {
  it("keeps call order and waits for drain instead of piling lines into the stream", async () => {
    const { sink, got, max } = slowSink();
    const w = new LineWriter(sink, () => {});
    const lines = Array.from({ length: 200 }, (_, i) => `{"n":${i},"pad":"${"p".repeat(40)}"}`);
    await Promise.all(lines.map((l) => w.write(l)));
    await w.flush();
    expect(got.join("")).toBe(lines.map((l) => `${l}\n`).join(""));
    // Backpressure honoured: the stream never held more than the line that crossed its mark
    // (queuing all 200 at once would have put ~11 KB in its buffer).
    expect(max()).toBeLessThanOrEqual(Math.max(...lines.map((l) => l.length)) + 1);
  });

  it("reports a hung-up stream once and turns later writes into no-ops", async () => {
    const errors: Array<Error | undefined> = [];
    const sink = new Writable({
      write(_chunk, _enc, cb) {
        const err = Object.assign(new Error("write EPIPE"), { code: "EPIPE" });
        cb(err);
      },
    });
    const w = new LineWriter(sink, (err) => errors.push(err));
    await w.write("one");
    await w.write("two");
    await w.flush();
    expect(w.gone).toBe(true);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/EPIPE/);
  });
});
