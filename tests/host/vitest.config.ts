import { cavemanVitest } from "@caveman/vitest-config";

// One Claude Code run drives many tool calls; a run takes seconds, not minutes.
export default cavemanVitest({ include: ["test/**/*.test.ts"], testTimeout: 240_000 });
