// The test helper that starts redis-server: the server it hands back is the one it started, even
// when another redis-server already answers on the port it picked.
import { startRedis } from "@caveman/test-redis";
import { describe, expect, it } from "vitest";

describe("startRedis", () => {
  it("never passes another process's redis-server off as its own", async () => {
    const first = await startRedis();
    try {
      await expect(startRedis({ port: first.port })).rejects.toThrow(/exited at start|did not answer/);
      const info = await first.cli(["info", "server"]);
      expect(info).toMatch(new RegExp(`^process_id:${first.pid}\\r?$`, "m"));
    } finally {
      await first.stop();
    }
  });
});
