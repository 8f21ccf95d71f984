import { describe, expect, it } from "vitest";
import { compress } from "../../compress.js";
import { corpusItem, fabricatedLines } from "../../corpus.test-util.js";
import { narrow } from "../../narrow.js";
import { splitRow } from "./table.js";

describe("tables", () => {
  it("splits quoted CSV cells", () => {
    expect(splitRow('a,"b, c","d ""q"""', ",")).toEqual(["a", "b, c", 'd "q"']);
    expect(splitRow("| a | b |", "|")).toEqual(["a", "b"]);
  });

  it("keeps the header and representative rows, with column facts for the rest", () => {
    const rows = ["id,region,latency_ms,status"];
    for (let i = 0; i < 200; i++) rows.push(`${i},eu-west,${20 + (i % 9)},${i === 120 ? "error" : "ok"}`);
    const input = rows.join("\n");
    const r = compress(input, { hint: "csv" });
    expect(r.kind).toBe("table");
    expect(r.ratio).toBeGreaterThan(0.8);
    expect(r.output.split("\n")[0]).toBe("id,region,latency_ms,status");
    expect(r.output).toContain("120,eu-west,");
    expect(r.output).toContain("region eu-west (all)");
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });

  it("reads a last header column whose cells hold spaces as one column in the facts", () => {
    // The gaps inside "/usr/bin/daemon --flag 8" were aligned in every row, so the facts said
    // "COMMAND /usr/bin/daemon (all)" of rows whose COMMAND is "/usr/bin/daemon --flag 0" to "3".
    const rows = ["PID   USER   STATUS  COMMAND"];
    for (let i = 0; i < 300; i++)
      rows.push(
        `${String(1000 + i).padEnd(5)} root   ${i % 50 === 7 ? "error " : "ok    "}  /usr/bin/daemon --flag ${i % 4}`,
      );
    const input = rows.join("\n");
    const r = compress(input);
    expect(r.kind).toBe("table");
    expect(r.reason).toBeUndefined();
    expect(r.output).toContain("1007  root   error   /usr/bin/daemon --flag 3");
    expect(r.output).not.toContain("COMMAND /usr/bin/daemon (all)");
    expect(r.output).not.toMatch(/column \d/);
    expect(fabricatedLines(input, r.output)).toEqual([]);
  });

  it("narrows a real CSV to matching rows with the header once", () => {
    const item = corpusItem("table-countries-csv");
    const v = narrow(item.content, "Kosovo", { hint: "csv" });
    expect(v.full).toBe(false);
    expect(v.output.split("\n")[0]).toBe(item.content.split("\n")[0]);
    expect(v.output).toContain("Kosovo,UNK,Pristina");
  });

  it("compresses a real TSV", () => {
    const item = corpusItem("table-mime-tsv");
    const r = compress(item.content, { hint: item.hint ?? "tsv" });
    expect(r.ratio).toBeGreaterThan(0.8);
  });
});

describe("table marker facts", () => {
  it("says nothing about a column that is blank in every elided row", () => {
    const rows = Array.from({ length: 200 }, (_, i) => `${1000 + i},user${i},,${i % 2 ? "paid" : "open"}`);
    const input = ["id,name,note,status", ...rows].join("\n");
    const r = compress(input, { hint: "csv" });
    expect(r.kind).toBe("table");
    const markers = r.output.split("\n").filter((l) => l.startsWith("[caveman: "));
    expect(markers.length).toBeGreaterThan(0);
    for (const m of markers) expect(m).not.toMatch(/note/);
    expect(markers.join("\n")).toMatch(/status: /);
  });
});
