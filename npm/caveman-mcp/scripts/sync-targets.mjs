// Writes what the targets table implies: npm/platforms/<id>/package.json and README.md for
// every target, and the launcher's optionalDependencies. Run after `tsup` (it reads the table
// from the private build in .cache/repo-lib/) whenever src/targets.ts changes, then
// `npx biome format --write npm`; test/targets.test.ts fails until then.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { manifestConstraints, packageName, TARGETS } from "../.cache/repo-lib/index.js";

const launcherDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const platformsDir = resolve(launcherDir, "..", "platforms");
const launcher = JSON.parse(readFileSync(join(launcherDir, "package.json"), "utf8"));

for (const target of TARGETS) {
  const dir = join(platformsDir, target.id);
  mkdirSync(dir, { recursive: true });
  const manifest = {
    name: packageName(target),
    version: launcher.version,
    description: `The ${target.id} build of caveman-mcp: the bundled server and its prebuilt SQLite binding. Install caveman-mcp, not this.`,
    license: launcher.license,
    type: "module",
    ...manifestConstraints(target),
    files: ["dist"],
    engines: launcher.engines,
    preferUnplugged: true,
  };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, "README.md"), readme(target));
}

launcher.optionalDependencies = Object.fromEntries(TARGETS.map((t) => [packageName(t), "workspace:*"]));
writeFileSync(join(launcherDir, "package.json"), `${JSON.stringify(launcher, null, 2)}\n`);
process.stdout.write(`wrote ${TARGETS.length} platform manifests and the launcher's optionalDependencies\n`);

function readme(target) {
  const where = [`os \`${target.os}\``, `cpu \`${target.cpu}\``];
  if (target.libc) where.push(`libc \`${target.libc}\``);
  return `# ${packageName(target)}

The ${target.id} build of [caveman-mcp](../../caveman-mcp/README.md): the bundled server
(\`dist/cli.mjs\`) and the prebuilt SQLite binding for each supported Node ABI
(\`dist/node-v<ABI>/better_sqlite3.node\`).

Do not install this package directly. Install or run \`caveman-mcp\`
(\`npx -y caveman-mcp\`): its launcher lists every platform package as an optional
dependency and the package manager installs only the one whose ${where.join(", ")} match the host.

This directory holds only the committed manifest; \`pnpm --filter caveman-mcp build\` fills
\`dist/\` when it runs on a ${target.id} host (see the launcher's README, "Building the
platform packages").
`;
}
