// Which library or runtime a stack frame belongs to (node_modules, node:internal, site-packages,
// java.*): stack traces and test runs fold those frames and keep the application's own.

const LIBRARY =
  /node_modules\/((?:@[^/]+\/)?[^/]+)|\(?(node:[\w/]+|internal\/[\w/]+)|site-packages\/([^/]+)|\bat ((?:java|javax|jdk|sun|kotlin|scala|org\.junit|org\.springframework|io\.netty)\.[\w.]+)\.|\/usr\/lib\/python[\d.]+\/([^/]+)/;

/** The library or runtime a stack frame belongs to, if it is not application code. */
export function libraryOf(line: string): string | undefined {
  const m = LIBRARY.exec(line);
  if (!m) return undefined;
  const name = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? "runtime";
  if (name.startsWith("internal/") || name.startsWith("node:")) return "node:internal";
  return name.split(".").slice(0, 2).join(".");
}
