// A clock the test moves by hand. It is a function (for options typed `() => number`, as
// chip-store's `clock`) that also has `now` (for options typed `{ now(): number }`-style use),
// so one helper serves both shapes.

/** Milliseconds since the epoch, moved only by `advance` and `set`. */
export interface FakeClock {
  (): number;
  /** The current time; the same as calling the clock. */
  now(): number;
  /** Move forward by `ms` (negative moves back, for clock-skew tests). */
  advance(ms: number): void;
  /** Jump to an absolute time. */
  set(ms: number): void;
}

/** Default start: a fixed instant, so that printed dates are the same on every run. */
export const FAKE_CLOCK_START = Date.UTC(2026, 10, 30, 12, 0, 0);

export function fakeClock(start: number = FAKE_CLOCK_START): FakeClock {
  let now = start;
  const read = () => now;
  return Object.assign(read, {
    now: read,
    advance(ms: number) {
      now += ms;
    },
    set(ms: number) {
      now = ms;
    },
  });
}
