// Newline-framed text, as MCP's stdio transport and our child workers write it: chunks in, whole
// lines out. A line is whole once its "\n" has arrived; what follows the last "\n" is held back
// (a writer killed mid-line leaves a partial line that is not a message). Bytes are decoded with
// a StringDecoder so a UTF-8 character split across two chunks is not mangled.
import { StringDecoder } from "node:string_decoder";

export class LineReader {
  /** Every whole line so far, in order, without its "\n". */
  readonly lines: string[] = [];
  #partial = "";
  readonly #decoder = new StringDecoder("utf8");

  /** Add a chunk; returns how many whole lines it completed. */
  push(chunk: Uint8Array | string): number {
    const before = this.lines.length;
    this.#partial += typeof chunk === "string" ? chunk : this.#decoder.write(Buffer.from(chunk));
    let nl = this.#partial.indexOf("\n");
    while (nl !== -1) {
      this.lines.push(this.#partial.slice(0, nl));
      this.#partial = this.#partial.slice(nl + 1);
      nl = this.#partial.indexOf("\n");
    }
    return this.lines.length - before;
  }

  /** Text after the last newline (not yet a line). */
  get partial(): string {
    return this.#partial;
  }

  /** The non-empty whole lines, each parsed as JSON (throws on a line that is not JSON). */
  values(): unknown[] {
    return parseLines(this.lines);
  }
}

function parseLines(lines: readonly string[]): unknown[] {
  return lines.filter((l) => l.length > 0).map((l) => JSON.parse(l) as unknown);
}

/** Parse each whole, non-empty line of `text` as JSON; a trailing partial line is ignored. */
export function parseJsonLines(text: string): unknown[] {
  const reader = new LineReader();
  reader.push(text);
  return reader.values();
}
