import { cavemanVitest } from "@caveman/vitest-config";
import { mergeConfig } from "vitest/config";

export default mergeConfig(cavemanVitest(), { test: { globalSetup: ["test/setup/build-children.ts"] } });
