#!/usr/bin/env node
// The `caveman-mcp` bin: resolve which server build to run, then run it as a transparent
// shadow. All of the launcher's own words go to stderr; stdout belongs to the server.
import { fileURLToPath } from "node:url";
import { formatFailure, formatNotice } from "./diagnostics.js";
import { gatherInput } from "./host.js";
import { resolveLaunch } from "./resolve.js";
import { mirrorEnd, runPlan } from "./run.js";

const writeErr = (text: string): void => {
  process.stderr.write(text);
};

async function main(): Promise<void> {
  const input = gatherInput(fileURLToPath(import.meta.url), process.env);
  const resolution = resolveLaunch(input);
  if (!resolution.ok) {
    writeErr(formatFailure(input.host, resolution));
    process.exit(1);
  }
  const notice = formatNotice(resolution.plan);
  if (notice !== null) writeErr(notice);
  const end = await runPlan(resolution.plan, { args: process.argv.slice(2), env: process.env });
  mirrorEnd(end, writeErr);
}

main().catch((err: unknown) => {
  writeErr(
    `caveman-mcp: launcher crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
