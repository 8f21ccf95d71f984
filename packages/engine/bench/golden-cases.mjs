// The inputs the golden hashes cover: every corpus item compressed with its hint and handle, and
// with no options at all; plus the JSON, log and grep throughput inputs of 10 KB and 1 MB (10 MB
// would slow the test run for no new code path).
import { handleFor } from "./graders.mjs";
import { throughputInputs } from "./throughput.mjs";

/** Named (text, options) pairs; names are stable keys into the golden file. */
export function goldenCases(corpus) {
  const cases = [];
  for (const item of corpus) {
    cases.push({
      name: `${item.id} hint+handle`,
      text: item.content,
      options: { ...(item.hint ? { hint: item.hint } : {}), handle: handleFor(item.content) },
    });
    cases.push({ name: `${item.id} plain`, text: item.content, options: {} });
  }
  for (const input of throughputInputs(corpus)) {
    if (input.size.bytes > 1024 * 1024) continue;
    cases.push({
      name: `throughput ${input.kind} ${input.size.label}`,
      text: input.text,
      options: { hint: input.hint },
    });
  }
  return cases;
}
