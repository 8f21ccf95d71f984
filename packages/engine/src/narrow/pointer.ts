// RFC 6901 JSON pointers over the span tree, so a pointer returns the exact original bytes.
import type { JNode } from "../shared/spans.js";

/** The node `pointer` names, or undefined when it does not resolve. */
export function resolvePointer(root: JNode, pointer: string): JNode | undefined {
  if (pointer === "") return root;
  if (!pointer.startsWith("/")) return undefined;
  let node: JNode | undefined = root;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!node) return undefined;
    if (node.t === "o") {
      const k: number = node.keys.lastIndexOf(token);
      node = k >= 0 ? node.vals[k] : undefined;
    } else if (node.t === "a") {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      node = node.items[Number(token)];
    } else return undefined;
  }
  return node;
}

function escapeToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The index of the child whose span [from(k), to(k)) holds `at`, or -1 (binary search). */
function childAt(count: number, from: (k: number) => number, to: (k: number) => number, at: number): number {
  let lo = 0;
  let hi = count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (at < from(mid)) hi = mid - 1;
    else if (at >= to(mid)) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** The pointer of the deepest value whose span holds offset `at` ("" for the root). */
export function pointerAt(root: JNode, at: number): string {
  let pointer = "";
  let node: JNode = root;
  for (;;) {
    if (node.t === "a") {
      const items = node.items;
      const k = childAt(
        items.length,
        (i) => items[i]!.s,
        (i) => items[i]!.e,
        at,
      );
      if (k < 0) return pointer;
      pointer += `/${k}`;
      node = items[k]!;
    } else if (node.t === "o") {
      const { ks, vals, keys } = node;
      const k = childAt(
        vals.length,
        (i) => ks[i]!,
        (i) => vals[i]!.e,
        at,
      );
      if (k < 0) return pointer;
      pointer += `/${escapeToken(keys[k]!)}`;
      node = vals[k]!;
    } else return pointer;
  }
}

/** What a pointer that does not resolve runs into: the deepest prefix that does, and its size. */
export function pointerMiss(root: JNode, pointer: string): string {
  let node: JNode = root;
  let resolved = "";
  for (const raw of pointer.slice(1).split("/")) {
    const next = resolvePointer(node, `/${raw}`);
    if (!next) break;
    resolved += `/${raw}`;
    node = next;
  }
  const what =
    node.t === "a"
      ? `an array of ${node.items.length}`
      : node.t === "o"
        ? `an object of ${node.keys.length} members`
        : "a value";
  return `${pointer} does not resolve; ${resolved === "" ? "the root" : resolved} is ${what}`;
}
