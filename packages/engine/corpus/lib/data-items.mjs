// Corpus items built from data that npm packages ship: recorded GitHub API responses
// (@octokit/fixtures), world-countries and mime-db, rendered the way tools print them
// (pretty JSON, JSON lines, CSV/TSV, markdown tables). Pure functions of installed files.
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { engineDir, engineModules, gold } from "./util.mjs";

const octokitDir = join(engineModules, "@octokit", "fixtures", "scenarios", "api.github.com");
const readJson = (path) => JSON.parse(readFileSync(path, "utf8"));
const scenario = (name) => readJson(join(octokitDir, name, "normalized-fixture.json"));

function countries() {
  return readJson(join(engineModules, "world-countries", "countries.json")).map((c) => ({
    name: c.name.common,
    official: c.name.official,
    cca3: c.cca3,
    capital: c.capital[0] ?? null,
    region: c.region,
    subregion: c.subregion || null,
    area: c.area,
    landlocked: c.landlocked,
    unMember: c.unMember,
    borders: c.borders,
    latlng: c.latlng,
  }));
}

const csvCell = (v) => {
  const s = v === null ? "" : Array.isArray(v) ? v.join(";") : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

function jsonItems() {
  const issues = scenario("paginate-issues").flatMap((r) => r.response);
  const mid = issues[Math.floor(issues.length / 2)];
  const list = countries();
  const pick = list[Math.floor(list.length / 2)];
  const largest = [...list].sort((a, b) => b.area - a.area)[0];
  const mime = readFileSync(join(engineModules, "mime-db", "db.json"), "utf8");
  const errors = scenario("errors");
  const cards = scenario("project-cards");
  const search = scenario("search-issues").find((r) => r.status === 200).response;
  const hit = search.items[Math.floor(search.items.length / 2)] ?? search.items[0];
  return [
    {
      id: "json-octokit-paginated-issues",
      kind: "json",
      hint: "gh api --paginate repos/octokit-fixture-org/paginate-issues/issues",
      ext: "json",
      source: "@octokit/fixtures paginate-issues: all pages of the recorded issues list, merged",
      content: `${JSON.stringify(issues, null, 2)}\n`,
      gold: [gold(mid.title, mid.title, "an issue from the middle of the merged pages"), gold(mid.html_url)],
    },
    {
      id: "json-world-countries",
      kind: "json",
      hint: "Read",
      ext: "json",
      source: "world-countries 5.1.0: countries.json projected to common fields",
      content: `${JSON.stringify(list, null, 2)}\n`,
      gold: [
        gold(pick.official, `${pick.name} ${pick.official}`, "a country from the middle third"),
        gold(largest.name, largest.name, "the largest area, a numeric outlier"),
      ],
    },
    {
      id: "json-mime-db",
      kind: "json",
      hint: "Read",
      ext: "json",
      source: "mime-db 1.54.0 db.json as shipped",
      content: mime,
      gold: [
        gold("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "spreadsheetml sheet xlsx"),
        gold("image/webp", "image/webp"),
      ],
    },
    {
      id: "json-octokit-errors-fixture",
      kind: "json",
      hint: "Read",
      ext: "json",
      source: "@octokit/fixtures errors + project-cards recordings (requests with a 422)",
      content: `${JSON.stringify([...cards, ...errors], null, 2)}\n`,
      gold: [
        gold("Validation Failed", "Validation Failed 422"),
        gold("/repos/octokit-fixture-org/errors/labels"),
      ],
    },
    {
      id: "json-octokit-search-issues",
      kind: "json",
      hint: "gh api search/issues",
      ext: "json",
      source: "@octokit/fixtures search-issues response body",
      content: `${JSON.stringify(search, null, 2)}\n`,
      gold: [gold(hit.title, hit.title), gold(hit.html_url)],
    },
  ];
}

function ndjsonItems() {
  const rows = [];
  for (const name of readdirSync(octokitDir).sort()) {
    for (const r of scenario(name)) {
      rows.push({
        scenario: name,
        method: r.method.toUpperCase(),
        path: r.path,
        status: r.status,
        bytes: JSON.stringify(r.response ?? "").length,
        ratelimit_remaining: Number(r.headers?.["x-ratelimit-remaining"] ?? -1),
      });
    }
  }
  const failed = rows.find((r) => r.status === 422);
  const countryLines = countries().map((c) => JSON.stringify(c));
  const mid = countries()[Math.floor(countryLines.length * 0.45)];
  return [
    {
      id: "ndjson-octokit-recordings",
      kind: "ndjson",
      hint: "ndjson",
      ext: "ndjson",
      source: "every recorded request of @octokit/fixtures as one JSON line",
      content: `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`,
      gold: [gold(failed.path, `${failed.path} 422`, "the one request answered 422")],
    },
    {
      id: "ndjson-world-countries",
      kind: "ndjson",
      hint: "jq -c '.[]' countries.json",
      ext: "ndjson",
      source: "world-countries projected records, one per line",
      content: `${countryLines.join("\n")}\n`,
      gold: [gold(mid.official, `${mid.name} ${mid.official}`, "a record from the middle third")],
    },
  ];
}

function tableItems() {
  const list = countries();
  const head = ["name", "cca3", "capital", "region", "subregion", "area", "landlocked", "unMember"];
  const csv = [head.join(","), ...list.map((c) => head.map((k) => csvCell(c[k])).join(","))];
  const midRow = csv[Math.floor(csv.length / 2)];
  const db = readJson(join(engineModules, "mime-db", "db.json"));
  const tsv = ["type\tsource\tcompressible\tcharset\textensions"];
  for (const type of Object.keys(db).sort()) {
    const e = db[type];
    tsv.push(
      [type, e.source ?? "", e.compressible ?? "", e.charset ?? "", (e.extensions ?? []).join(",")].join(
        "\t",
      ),
    );
  }
  const tsvRow = tsv.find((l) => l.startsWith("application/vnd.ms-excel\t"));
  const md = ["| package | version | license | description |", "| --- | --- | --- | --- |"];
  // Walk the engine's own pinned dependency tree, so installs elsewhere in the workspace change nothing.
  for (const p of dependencyTree()) {
    const desc = String(p.description ?? "")
      .replace(/\|/g, "\\|")
      .replace(/\s+/g, " ");
    md.push(`| ${p.name} | ${p.version} | ${p.license ?? ""} | ${desc} |`);
  }
  const mdRow = md.find((l) => l.startsWith("| minisearch |"));
  return [
    {
      id: "table-countries-csv",
      kind: "table",
      hint: "csv",
      ext: "csv",
      source: "world-countries projected to CSV",
      content: `${csv.join("\n")}\n`,
      gold: [gold(midRow, midRow.split(",")[0], "a row from the middle")],
    },
    {
      id: "table-mime-tsv",
      kind: "table",
      hint: "tsv",
      ext: "tsv",
      source: "mime-db 1.54.0 as TSV, sorted by type",
      content: `${tsv.join("\n")}\n`,
      gold: [gold(tsvRow, "application/vnd.ms-excel xls")],
    },
    {
      id: "table-workspace-packages-md",
      kind: "table",
      hint: "markdown",
      ext: "md",
      source: "markdown table of the packages installed in the workspace's pnpm store",
      content: `${md.join("\n")}\n`,
      gold: [gold(mdRow, "minisearch")],
    },
  ];
}

/** package.json of every package reachable from the engine's manifest, sorted by name@version. */
function dependencyTree() {
  // Node's lookup walk (dir/node_modules/name, then each parent), ignoring "exports" maps.
  const lookup = (from, name) => {
    for (let d = from; d !== dirname(d); d = dirname(d)) {
      const candidate = join(d, "node_modules", name);
      if (existsSync(join(candidate, "package.json"))) return realpathSync(candidate);
    }
    return undefined;
  };
  const seen = new Map();
  const visit = (dir) => {
    const pkg = readJson(join(dir, "package.json"));
    const key = `${pkg.name}@${pkg.version}`;
    if (seen.has(key)) return;
    seen.set(key, pkg);
    const deps = { ...pkg.dependencies, ...(dir === engineDir ? pkg.devDependencies : {}) };
    for (const name of Object.keys(deps).sort()) {
      const found = lookup(dir, name);
      // Optional dependencies for other platforms are not installed: nothing to list.
      if (found === undefined) continue;
      visit(found);
    }
  };
  visit(engineDir);
  seen.delete("@caveman/engine@0.1.0");
  return [...seen.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map((e) => e[1]);
}

export function dataItems() {
  return [...jsonItems(), ...ndjsonItems(), ...tableItems()];
}
