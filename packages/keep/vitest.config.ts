import { cavemanVitest } from "@caveman/vitest-config";

export default cavemanVitest();
