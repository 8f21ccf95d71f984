import { cavemanVitest } from "@caveman/vitest-config";

// The packaging test packs and installs tarballs with npm; give it room on 2 cores.
export default cavemanVitest({ testTimeout: 300_000 });
