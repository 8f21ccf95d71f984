import { cavemanVitest } from "@caveman/vitest-config";

// `pnpm bench:session` only: one run plays the whole session twice in the real CLI (many minutes).
export default cavemanVitest({ include: ["bench/session.bench.test.ts"], testTimeout: 3_600_000 });
