// Everything exported here is public API of the caveman-mcp launcher (for tools and tests).
export { describeHost, formatFailure, formatNotice } from "./diagnostics.js";
export { LauncherError, type LauncherErrorCode } from "./errors.js";
export {
  type BuildInfo,
  findPackageDir,
  gatherHost,
  gatherInput,
  gatherLibcEvidence,
  type LibcPaths,
} from "./host.js";
export {
  abisIn,
  BINDING_ENV,
  bindingFile,
  OVERRIDE_ENV,
  PORTABLE_SERVER_FILE,
  SERVER_FILE,
} from "./layout.js";
export { detectLibc, type LibcEvidence, type LibcVerdict } from "./libc.js";
export {
  type HostFacts,
  type LaunchPlan,
  type OrdinarySqlite,
  type Resolution,
  type ResolveInput,
  resolveLaunch,
} from "./resolve.js";
export {
  type ChildEnd,
  FORWARDED_SIGNALS,
  mirrorEnd,
  type RunOptions,
  runPlan,
  signalExitCode,
} from "./run.js";
export {
  EMULATION,
  type Libc,
  manifestConstraints,
  PLATFORM_SCOPE,
  packageName,
  TARGETS,
  type Target,
  targetById,
  targetsForHost,
} from "./targets.js";
