// Per-path serialisation inside one process: operations on the same real path run one after the
// other, in call order; different paths run concurrently. A failed operation releases the lock.
// One table serves the whole process (`processLocks`), so two editors over the same files — two
// sessions of one server — cannot interleave either; each would otherwise lose the other's edit.

class PathLocks {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await next;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

/** The table every editor of this process shares. */
export const processLocks = new PathLocks();
