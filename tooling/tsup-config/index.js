// The build settings every package shares: ESM for Node 20 (the oldest line `engines` admits),
// declarations and source maps beside the JavaScript, dist/ emptied first. Each tsup.config.ts
// spreads `base` and adds its entries (and whatever it does differently, said there).
export const base = Object.freeze({
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
});
