// An internal work meter (not public API): the engine's loops over lines, characters, units and
// bracket pairs add the number of items they visit, so a test can check that work grows linearly
// with the input, counting steps rather than timing them. Adding to a number costs nothing next
// to the work it counts; the count only ever grows, and tests read differences.

let steps = 0;

/** Records `n` steps of work. */
export function tick(n = 1): void {
  steps += n;
}

/** Steps recorded since the process started. */
export function workDone(): number {
  return steps;
}
