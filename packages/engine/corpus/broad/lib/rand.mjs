// Seeded randomness and clock formats for the broad corpus. Every item draws from its own
// mulberry32 stream seeded by its id, so adding or reordering items never changes another item.

/** A deterministic random source seeded by a string. */
export function rng(seedText) {
  let h = 2166136261;
  for (let i = 0; i < seedText.length; i++) h = Math.imul(h ^ seedText.charCodeAt(i), 16777619);
  let a = h >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  const hex = (n) => {
    let s = "";
    for (let i = 0; i < n; i++) s += "0123456789abcdef"[int(0, 15)];
    return s;
  };
  /** Index into weighted entries ({ w }). */
  const weighted = (entries) => {
    const total = entries.reduce((s, e) => s + (e.w ?? 1), 0);
    let x = next() * total;
    for (const e of entries) {
      x -= e.w ?? 1;
      if (x < 0) return e;
    }
    return entries.at(-1);
  };
  const ip = () => `10.${int(0, 3)}.${int(0, 40)}.${int(2, 250)}`;
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  return { next, int, pick, hex, weighted, ip, uuid };
}

const MON = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAY = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const p2 = (n) => String(n).padStart(2, "0");
const p3 = (n) => String(n).padStart(3, "0");

/** Clock formats of the log families, from epoch milliseconds (UTC). */
export function stamp(ms, format) {
  const d = new Date(ms);
  const Y = d.getUTCFullYear();
  const M = d.getUTCMonth();
  const D = d.getUTCDate();
  const h = p2(d.getUTCHours());
  const m = p2(d.getUTCMinutes());
  const s = p2(d.getUTCSeconds());
  const f = p3(d.getUTCMilliseconds());
  const us = `${f}${p3((ms * 7) % 1000)}`;
  switch (format) {
    case "hdfs":
      return `${p2(Y % 100)}${p2(M + 1)}${p2(D)} ${h}${m}${s}`;
    case "spark":
      return `${p2(Y % 100)}/${p2(M + 1)}/${p2(D)} ${h}:${m}:${s}`;
    case "android":
      return `${p2(M + 1)}-${p2(D)} ${h}:${m}:${s}.${f}`;
    case "apache":
      return `${DAY[d.getUTCDay()]} ${MON[M]} ${p2(D)} ${h}:${m}:${s} ${Y}`;
    case "clf":
      return `${p2(D)}/${MON[M]}/${Y}:${h}:${m}:${s} +0000`;
    case "nginx-error":
      return `${Y}/${p2(M + 1)}/${p2(D)} ${h}:${m}:${s}`;
    case "syslog":
      return `${MON[M]} ${String(D).padStart(2, " ")} ${h}:${m}:${s}`;
    case "journal-precise":
      return `${MON[M]} ${p2(D)} ${h}:${m}:${s}.${us}`;
    case "iso-comma":
      return `${Y}-${p2(M + 1)}-${p2(D)} ${h}:${m}:${s},${f}`;
    case "iso-ms":
      return `${Y}-${p2(M + 1)}-${p2(D)} ${h}:${m}:${s}.${f}`;
    case "iso-us-z":
      return `${Y}-${p2(M + 1)}-${p2(D)}T${h}:${m}:${s}.${us}Z`;
    case "iso-7-z":
      return `${Y}-${p2(M + 1)}-${p2(D)}T${h}:${m}:${s}.${us}${(ms % 10) | 0}Z`;
    case "time-ms":
      return `${h}:${m}:${s}.${f}`;
    case "redis":
      return `${p2(D)} ${MON[M]} ${Y} ${h}:${m}:${s}.${f}`;
    case "klog":
      return `${p2(M + 1)}${p2(D)} ${h}:${m}:${s}.${us}`;
    case "cbs":
      return `${Y}-${p2(M + 1)}-${p2(D)} ${h}:${m}:${s}`;
    case "proxifier":
      return `${p2(M + 1)}.${p2(D)} ${h}:${m}:${s}`;
    case "bgl":
      return `${Y}-${p2(M + 1)}-${p2(D)}-${h}.${m}.${s}.${us}`;
    default:
      throw new Error(`unknown stamp format ${format}`);
  }
}
