import { cavemanVitest } from "./index.js";

export default cavemanVitest({ include: ["*.test.js"] });
