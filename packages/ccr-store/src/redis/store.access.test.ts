// The team store's access to redis-server: TLS, and passwords accepted and refused.
import { describe, expect, it } from "vitest";
import { useTeamStores } from "../../test/teamStores.js";
import { openRedisStore } from "./store.js";

const { opened } = useTeamStores();

describe("TLS", () => {
  it("talks to a TLS server whose private CA it is given, and refuses it clearly without that CA", async () => {
    const { startRedis } = await import("@caveman/test-redis");
    const secure = await startRedis({ tls: true });
    try {
      expect(secure.url.startsWith("rediss://")).toBe(true);
      const trusted = openRedisStore({ url: secure.url, tlsCaFile: secure.caFile! });
      opened.push(trusted);
      await trusted.ready(3000);
      const { handle } = await trusted.put("over TLS");
      expect(new TextDecoder().decode((await trusted.get(handle))!.original)).toBe("over TLS");
      expect((await trusted.probe()).server).toBe("Redis");

      const untrusted = openRedisStore({ url: secure.url, commandTimeoutMs: 300, connectTimeoutMs: 500 });
      opened.push(untrusted);
      await expect(untrusted.ready(1500)).rejects.toMatchObject({ code: "store_unavailable" });
      expect(untrusted.status().lastError).toMatch(
        /TLS handshake failed \(.*certificate.*\).*CAVEMAN_CCR_TLS_CA/,
      );
      await expect(untrusted.get(handle)).rejects.toMatchObject({ code: "store_unavailable" });
    } finally {
      await secure.stop();
    }
  });
});

describe("auth", () => {
  it("uses a password from the option, never shows it, and names an authentication failure", async () => {
    const { startRedis } = await import("@caveman/test-redis");
    const secret = "s3cret-Pa55";
    const locked = await startRedis({ args: ["--requirepass", secret] });
    try {
      const good = openRedisStore({ url: locked.url, password: secret });
      opened.push(good);
      await good.ready(2000);
      expect(await good.put("authed")).toMatchObject({ created: true });
      const inUrl = openRedisStore({ url: `redis://:${secret}@127.0.0.1:${locked.port}` });
      opened.push(inUrl);
      await inUrl.ready(2000);
      expect(inUrl.status().url).toBe(`redis://:***@127.0.0.1:${locked.port}`);

      const bad = openRedisStore({ url: locked.url, password: "wrong", commandTimeoutMs: 300 });
      opened.push(bad);
      const err = (await bad.ready(1000).catch((e: unknown) => e)) as Error;
      expect(err).toMatchObject({ code: "store_unavailable" });
      // On a loaded machine the refusal can come after ready() gave up waiting: wait for it.
      for (let t = 0; t < 100 && !/authentication failed/.test(bad.status().lastError ?? ""); t++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(bad.status().lastError).toMatch(/authentication failed/);
      for (const text of [err.message, JSON.stringify(bad.status()), JSON.stringify(inUrl.status())]) {
        expect(text).not.toContain(secret);
      }
    } finally {
      await locked.stop();
    }
  });
});
