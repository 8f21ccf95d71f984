// `pnpm test` starts here: without the programs the Redis tests run (redis-server, redis-cli,
// openssl), stop at once with one line naming the setup command, instead of minutes of suites
// that end in stack traces.
import { missingToolsLine } from "../test-redis/index.js";

const line = missingToolsLine();
if (line !== undefined) {
  process.stderr.write(`pnpm test: ${line}\n`);
  process.exit(1);
}
