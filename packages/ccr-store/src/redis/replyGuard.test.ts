// The reply scanner alone: well-formed replies of every shape pass, in any chunking; a header
// announcing more than the limits, a runaway line or bytes that are not RESP are refused as
// soon as they are seen.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { replyScanner } from "./replyGuard.js";

const LIMITS = { maxBulkBytes: 1000, maxReplyBytes: 200_000, maxElements: 1000 };

function scan(bytes: string | Buffer, cuts: number[] = []): string | null {
  let why: string | null = null;
  const feed = replyScanner(LIMITS, (w) => {
    why = w;
  });
  const buf = typeof bytes === "string" ? Buffer.from(bytes, "latin1") : bytes;
  let at = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < buf.length).sort((a, b) => a - b), buf.length]) {
    feed(buf.subarray(at, cut));
    at = cut;
  }
  return why;
}

const GOOD = [
  "+OK\r\n",
  "-ERR nope\r\n",
  ":42\r\n",
  "$5\r\nhe\r\nl\r\n",
  "$-1\r\n",
  "*-1\r\n",
  "*0\r\n",
  "*3\r\n$2\r\nok\r\n$3\r\n\x00\xff\r\r\n*2\r\n:1\r\n+x\r\n",
  `$1000\r\n${"x".repeat(1000)}\r\n`,
];

describe("replyScanner", () => {
  it("passes well-formed replies however the socket cuts them", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...GOOD), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(1200)),
        (replies, cuts) => {
          expect(scan(replies.join(""), cuts)).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each([
    ["$2147483648\r\n", /bulk string of 2147483648 bytes, over the 1000-byte cap/],
    ["*1\r\n$1001\r\n", /1001 bytes/],
    ["*1000000\r\n", /aggregate of 1000000 elements/],
    ["%600\r\n", /aggregate of 600/],
    ["$abc\r\n", /malformed length header/],
    ["Z\r\n", /starts no RESP value/],
    [`+${"x".repeat(70_000)}`, /a line over/],
    ["$3\r\nabcde", /without its CRLF/],
    [`*300\r\n${`$1000\r\n${"y".repeat(1000)}\r\n`.repeat(300)}`, /a reply over 200000 bytes/],
  ])("refuses bad reply %# as soon as it shows", (bytes, why) => {
    expect(scan(bytes)).toMatch(why);
  });
});
