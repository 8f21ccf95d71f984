// Maps a caller's hint (a ContentKind, or the tool/command that produced the output) to a kind.
// Unknown hints map to nothing and detection falls back to the content.
import { CONTENT_KINDS } from "./kinds/list.js";
import type { ContentKind } from "./types.js";

const KINDS: ReadonlySet<string> = new Set(CONTENT_KINDS);

const TOOLS: ReadonlyArray<[RegExp, ContentKind]> = [
  [/^(git (diff|show)|diff|svn diff|hg diff)\b/, "diff"],
  [/^(grep|egrep|rg|ripgrep|ag|ack|git grep|search|glob)\b/, "grep"],
  [
    /^(tsc|eslint|biome|cargo (build|check|clippy)|gcc|g\+\+|clang|mypy|pyright|ruff|go vet|javac|rustc)\b/,
    "diagnostics",
  ],
  [
    /^((npm|pnpm|yarn|bun) (run )?test|vitest|jest|pytest|mocha|go test|cargo test|rspec|phpunit|ava|tap)\b/,
    "test",
  ],
  [/^(curl|gh api|http|httpie|jq|wget)\b/, "json"],
  [/^(journalctl|docker logs|kubectl logs|logcat|dmesg|syslog)\b|\.log\b|\/log\//, "log"],
  [/^git log\b.*\s(-p|--patch|--stat|--numstat|--shortstat)\b/, "diff"],
  [/^(node --test|python3? -m (unittest|pytest)|deno test|bun test)\b/, "test"],
  [/^(ndjson|jsonl|json lines)\b/, "ndjson"],
  [/^(csv|tsv)\b/, "table"],
  [/^(readme|changelog)\b|\.(md|markdown|rst|txt)$/, "prose"],
];

/** The kind a hint names, if any. */
export function kindFromHint(hint: string | undefined): ContentKind | undefined {
  if (!hint) return undefined;
  const h = hint.trim().toLowerCase();
  if (KINDS.has(h)) return h as ContentKind;
  for (const [pattern, kind] of TOOLS) if (pattern.test(h)) return kind;
  return undefined;
}
