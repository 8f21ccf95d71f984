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
