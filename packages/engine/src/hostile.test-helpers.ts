// Test helper for the hostile-input tests: a text of n generated lines.

/** The lines f(0) .. f(n - 1), joined with "\n". */
export const lines = (n: number, f: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => f(i)).join("\n");
