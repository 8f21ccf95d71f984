// Parsing the team store URL: settings, overrides, refusals that name the problem, and a password
// that never shows outside `password`.
import { describe, expect, it } from "vitest";
import { parseTeamUrl } from "./teamUrl.js";

describe("parseTeamUrl", () => {
  it("reads host, port, database, user, password and the settings in the query", () => {
    const u = parseTeamUrl(
      "rediss://alice:p%40ss@cache.example:6380/2?namespace=web.team&idle=12h&max_age=7d&max_bytes=16MiB",
    );
    expect(u).toMatchObject({
      tls: true,
      host: "cache.example",
      port: 6380,
      db: 2,
      username: "alice",
      password: "p@ss",
      namespace: "web.team",
      idleMs: 12 * 3_600_000,
      maxAgeMs: 7 * 86_400_000,
      maxOriginalBytes: 16 * 1024 * 1024,
      masked:
        "rediss://alice:***@cache.example:6380/2?namespace=web.team&idle=12h&max_age=7d&max_bytes=16MiB",
    });
  });

  it("uses defaults, and lets the flag namespace and the env password win", () => {
    expect(parseTeamUrl("redis://[::1]")).toMatchObject({
      tls: false,
      host: "::1",
      port: 6379,
      db: 0,
      username: undefined,
      password: undefined,
      namespace: "default",
      idleMs: undefined,
    });
    const u = parseTeamUrl("redis://:inurl@h/0?namespace=a", { namespace: "b", password: "fromenv" });
    expect(u).toMatchObject({ namespace: "b", password: "fromenv" });
    expect(u.masked).toBe("redis://:***@h/0?namespace=b");
  });

  it("masks a user name that stands alone (redis://SECRET@host is a password written in the wrong place)", () => {
    const u = parseTeamUrl("redis://s3cr3tToken@cache.example:6379");
    expect(u.masked).toBe("redis://***@cache.example:6379");
    expect(u.masked).not.toContain("s3cr3tToken");
    expect(parseTeamUrl("redis://alice:pw@h").masked).toBe("redis://alice:***@h");
    // With the password given apart, a lone user name is a user name.
    expect(parseTeamUrl("redis://alice@h", { password: "pw" }).masked).toBe("redis://alice@h");
  });

  it("refuses what it cannot use, naming the problem and never echoing a password", () => {
    const cases: Array<[string, RegExp]> = [
      ["http://h", /redis:\/\/ or rediss:\/\//],
      ["redis://:secret@h/x", /database number/],
      ["redis://h?namespace=a:b", /namespace/],
      ["redis://h?namespace=", /namespace/],
      ["redis://h?password=secret", /unknown team store setting "password".*accepted: namespace/],
      ["redis://h?idle=soon", /duration/],
      ["redis://h?idle=0", /duration/],
      ["redis://h?max_bytes=lots", /byte size/],
      ["redis://h?namespace=a&namespace=b", /twice/],
      ["not a url :secret@", /not a valid URL/],
      ["redis://u:secret%zz@h", /malformed %-escape/],
      // A password holding an unescaped "/" or "?" splits the URL early: the rest must not be echoed.
      ["redis://u:6379/secret@h", /percent-encode/],
      ["redis://u:6379?secret@h", /percent-encode/],
      ["redis://u:6379?x=1&secret@h", /percent-encode/],
    ];
    for (const [text, message] of cases) {
      let err: unknown;
      try {
        parseTeamUrl(text);
      } catch (e) {
        err = e;
      }
      expect(err, text).toMatchObject({ code: "invalid_config", message: expect.stringMatching(message) });
      expect((err as Error).message).not.toContain("secret");
    }
  });
});
