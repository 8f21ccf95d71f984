// Everything exported here is the public API of @caveman/test-kit (test code only).
export { FAKE_CLOCK_START, type FakeClock, fakeClock } from "./clock.js";
export { LineReader, parseJsonLines } from "./jsonLines.js";
export {
  loadFactor,
  type MachineLoad,
  machineLoad,
  PROPERTY_SEED,
  PROPERTY_SEED_ENV,
  type PropertyOptions,
  propertyParams,
} from "./properties.js";
export { type LineProcess, type LineProcessOptions, type ProcessEnd, spawnLines } from "./spawn.js";
export { type ScratchDir, scratchDir, tempDir } from "./tempDir.js";
