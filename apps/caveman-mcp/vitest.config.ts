import { cavemanVitest } from "@caveman/vitest-config";

// Process tests: each file spawns the built binary in its own sandbox, so files run side by side.
export default cavemanVitest({ testTimeout: 180_000, processes: true });
