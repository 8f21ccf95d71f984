import type { Options } from "tsup";

type Shared = "format" | "dts" | "clean" | "sourcemap" | "target";

/** ESM for Node 20, `.d.ts` and source maps, dist/ emptied first; spread it and add `entry`. */
export declare const base: Readonly<Required<Pick<Options, Shared>>>;
