// Detects the C library of the running Linux host at run time, from evidence the caller
// gathers (so tests feed fake inputs). Never guessed from which package happened to be
// installed: that was esbuild's and others' bug. Order of trust: what Node's own process
// report says about the running binary, then the text of `ldd`, then the loader files.
import type { Libc } from "./targets.js";

/** What a host offers as evidence of its C library; any part may be missing. */
export interface LibcEvidence {
  /** `process.report.getReport().header.glibcVersionRuntime`: set only when Node runs on glibc. */
  readonly glibcVersionRuntime?: string | undefined;
  /** `process.report.getReport().sharedObjects`: libraries mapped into the running process. */
  readonly sharedObjects?: readonly string[] | undefined;
  /** Contents of `/usr/bin/ldd` (a shell script on glibc, a musl loader link on musl). */
  readonly lddText?: string | undefined;
  /** File names in `/lib` (musl's loader is `/lib/ld-musl-<arch>.so.1`). */
  readonly libEntries?: readonly string[] | undefined;
}

/** The verdict and the evidence it rests on, for the launcher's diagnostics. */
export interface LibcVerdict {
  readonly libc: Libc | null;
  readonly source: string;
}

const MUSL_OBJECT = /(?:^|\/)(?:ld-musl-[^/]*\.so|libc\.musl-[^/]*\.so)/;

/** Decide glibc, musl or unknown (null) from the evidence, most trusted first. */
export function detectLibc(evidence: LibcEvidence): LibcVerdict {
  const runtime = evidence.glibcVersionRuntime;
  if (typeof runtime === "string" && runtime.length > 0) {
    return { libc: "glibc", source: `process report: glibc ${runtime}` };
  }
  const musl = evidence.sharedObjects?.find((so) => MUSL_OBJECT.test(so));
  if (musl !== undefined) return { libc: "musl", source: `process report: ${musl} is loaded` };

  const ldd = evidence.lddText;
  if (ldd !== undefined) {
    // musl's ldd is the loader itself (binary, contains "musl"); glibc's is a bash script
    // that names the GNU C Library. Check musl first: a musl ldd never mentions GNU libc.
    if (/musl/i.test(ldd)) return { libc: "musl", source: "/usr/bin/ldd is musl's" };
    if (/GNU C Library|GLIBC|glibc/.test(ldd)) return { libc: "glibc", source: "/usr/bin/ldd is glibc's" };
  }
  // Debian and Ubuntu ship a musl package beside glibc, so both loaders in /lib says
  // nothing about which one Node runs on: unknown, not a guess.
  const loader = evidence.libEntries?.find((name) => name.startsWith("ld-musl-"));
  const glibcLoader = evidence.libEntries?.some((name) => name.startsWith("ld-linux"));
  if (loader !== undefined && glibcLoader === true) {
    return { libc: null, source: `/lib has both /lib/${loader} and the glibc loader` };
  }
  if (loader !== undefined) return { libc: "musl", source: `/lib/${loader} exists` };
  if (glibcLoader === true) return { libc: "glibc", source: "/lib has the glibc loader" };
  return { libc: null, source: "no evidence of glibc or musl" };
}
