// The team store of the binary (`--ccr-url`): opened from the config, its link changes told on
// stderr (a start with the server away is a loud warning that says what still works and what to
// run), and the `doctor` check. Contract: nothing here waits on the network except `checkTeam`,
// and then within a bound; the password never reaches a log line (only the masked URL does).
import type { TeamStore } from "@caveman/ccr-store";
import { openRedisStore } from "@caveman/ccr-store/redis";
import type { Logger } from "@caveman/mcp-server";
import type { Config } from "./config.js";

export function openTeam(config: Config, logger: Logger): TeamStore | undefined {
  if (!config.team) return undefined;
  return openRedisStore({
    url: config.team.url,
    ...(config.team.tlsCaFile ? { tlsCaFile: config.team.tlsCaFile } : {}),
    onState: (state, detail) => {
      if (state === "down") {
        logger.warn(
          `${detail}; compress keeps storing originals locally and writes them through when it is back; a retrieve that needs it fails with cave_store_unavailable; run \`caveman-mcp doctor\``,
        );
      } else if (state === "ready") logger.info(detail);
    },
  });
}

/** One-line description of the team store for start lines: masked URL and namespace. */
export function describeTeam(team: TeamStore): string {
  const s = team.status();
  return `${s.url} (namespace ${s.namespace})`;
}

/** The `doctor` check: connect within a bound, round-trip, count the namespace. */
export async function checkTeam(team: TeamStore, boundMs = 3000): Promise<{ ok: boolean; detail: string }> {
  const where = describeTeam(team);
  try {
    await team.ready(boundMs);
    const { server, version } = await team.probe();
    const s = await team.stats();
    return { ok: true, detail: `${where}: ${server} ${version}, ${s.entries} entries, ${s.bytes} bytes` };
  } catch (err) {
    const why = team.status().lastError ?? (err instanceof Error ? err.message : String(err));
    return { ok: false, detail: `${where} unreachable: ${why}; the local store works without it` };
  }
}
