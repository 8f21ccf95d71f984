import { cavemanVitest } from "@caveman/vitest-config";

export default cavemanVitest({ testTimeout: 60_000 });
