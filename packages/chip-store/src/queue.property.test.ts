// Property: whatever mix of saves, deletes and clock steps, the store's list equals a plain FIFO
// queue model, and each eviction names exactly the ids the model drops.
import { fakeClock, propertyParams, tempDir } from "@caveman/test-kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openChipStore } from "./store.js";

type Op = { t: "save"; text: string; tick: number } | { t: "delete"; pick: number } | { t: "reopen" };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      t: fc.constant("save" as const),
      text: fc.string(),
      tick: fc.integer({ min: 0, max: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("delete" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("reopen" as const) }) },
);

describe("FIFO queue model", () => {
  it("list, evictions and contents match a simple queue", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(op, { maxLength: 40 }), (capacity, ops) => {
        const dir = tempDir();
        const clock = fakeClock();
        let store = openChipStore({ dir, capacity, clock });
        const model: { id: string; text: string }[] = [];
        for (const o of ops) {
          if (o.t === "save") {
            clock.advance(o.tick);
            const res = store.saveContent({ tool: "t", content: o.text });
            model.push({ id: res.chip!.id, text: o.text });
            const dropped = model.splice(0, Math.max(0, model.length - capacity)).map((m) => m.id);
            expect(res.evicted).toEqual(dropped);
          } else if (o.t === "delete" && model.length > 0) {
            const [gone] = model.splice(o.pick % model.length, 1);
            expect(store.delete(gone!.id)).toBe(true);
          } else if (o.t === "reopen") {
            store = openChipStore({ dir, capacity, clock });
          }
          expect(store.list().map((c) => c.id)).toEqual(model.map((m) => m.id));
        }
        for (const m of model) expect(store.replay(m.id)).toBe(m.text);
      }),
      propertyParams(150),
    );
  });
});
