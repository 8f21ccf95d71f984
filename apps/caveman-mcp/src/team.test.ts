// The team store settings as the config reads them: argv beats env, the password comes from the
// URL or CAVEMAN_CCR_PASSWORD and is kept out of every message, and bad values stop the start.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";

const home = tempDir("caveman-team-config-");
const base = { cwd: home, homedir: home, platform: "linux" };
const load = (argv: string[], env: Record<string, string> = {}) => loadConfig({ ...base, argv, env }).config;

describe("team store configuration", () => {
  it("is off by default", () => {
    expect(load([]).team).toBeUndefined();
  });

  it("takes the URL from --ccr-url over CAVEMAN_CCR_URL, the namespace flag over the URL's", () => {
    const env = { CAVEMAN_CCR_URL: "redis://env-host:1/0?namespace=env", CAVEMAN_CCR_NAMESPACE: "envns" };
    expect(load([], env).team?.url).toMatchObject({ host: "env-host", namespace: "envns" });
    const team = load(
      ["--ccr-url", "rediss://flag-host?namespace=url", "--ccr-namespace", "flagns"],
      env,
    ).team;
    expect(team?.url).toMatchObject({ host: "flag-host", tls: true, port: 6379, namespace: "flagns" });
    expect(loadConfig({ ...base, argv: ["--ccr-url=redis://h"], env }).config.sources).toMatchObject({
      team: "flag",
      teamNamespace: "env",
    });
  });

  it("reads the password from CAVEMAN_CCR_PASSWORD, which wins over the URL's, and masks it", () => {
    const team = load(["--ccr-url", "redis://u:inurl@h"], { CAVEMAN_CCR_PASSWORD: "fromenv" }).team;
    expect(team?.url).toMatchObject({ username: "u", password: "fromenv", masked: "redis://u:***@h" });
  });

  it("checks CAVEMAN_CCR_TLS_CA: absolute, an existing file, and only with rediss://", () => {
    const ca = join(home, "ca.pem");
    writeFileSync(ca, "-----BEGIN CERTIFICATE-----\n");
    expect(load(["--ccr-url", "rediss://h"], { CAVEMAN_CCR_TLS_CA: ca }).team?.tlsCaFile).toBe(ca);
    for (const [url, value, message] of [
      ["rediss://h", "ca.pem", /must be an absolute path/],
      ["rediss://h", join(home, "missing.pem"), /does not exist/],
      ["rediss://h", home, /is not a file/],
      ["redis://h", ca, /not rediss:\/\//],
    ] as Array<[string, string, RegExp]>) {
      expect(() => load(["--ccr-url", url], { CAVEMAN_CCR_TLS_CA: value })).toThrow(message);
    }
  });

  it("refuses a bad URL with exit-2 ConfigError naming the flag, never echoing the password", () => {
    let err: unknown;
    try {
      load(["--ccr-url", "redis://u:topsecret@h/notadb"]);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({
      name: "ConfigError",
      message: expect.stringMatching(/^--ccr-url \/ CAVEMAN_CCR_URL: .*database number/),
    });
    expect((err as Error).message).not.toContain("topsecret");
  });
});
