import { readdirSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@caveman/test-kit";
import { describe, expect, it } from "vitest";
import { sha256 } from "../doc/lines.js";
import { type EditRecord, prepareUndo, recordEdit } from "./journal.js";

let hex = 0;
function deps() {
  return {
    dir: tempDir("edit-ops-journal-unit-"),
    depth: 20,
    randomHex: () => (hex++).toString(16).padStart(16, "0"),
    now: Date.now,
  };
}

function creation(text: string): EditRecord {
  const after = Buffer.from(text);
  return {
    real: "/x/new.txt",
    path: "new.txt",
    op: "write",
    before: null,
    after,
    beforeHash: null,
    afterHash: sha256(after),
  };
}

describe("recordEdit", () => {
  // Two writers that journal the same file at once (two processes creating it in a directory that
  // did not exist, so no file lock was taken) read the same newest seq: neither may replace the
  // other's entry, or the loser's discard would delete the winner's and its edit could not be undone.
  it("gives two entries recorded at once two seqs, and a discard removes only its own", async () => {
    const d = deps();
    const [a, b] = await Promise.all([recordEdit(d, creation("a\n")), recordEdit(d, creation("b\n"))]);
    const [sub] = readdirSync(d.dir);
    expect(readdirSync(join(d.dir, sub!)).sort()).toEqual(["0000000001.edit", "0000000002.edit"]);
    await b.discard();
    await a.landed();
    const undo = await prepareUndo(d, "/x/new.txt", "new.txt", Buffer.from("a\n"));
    expect(undo.before).toBeNull();
    await a.discard();
    expect(readdirSync(join(d.dir, sub!))).toEqual([]);
  });
});
