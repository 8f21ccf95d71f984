// The output shapes Claude Code 2.1.328 accepts in `updatedToolOutput`, as a checker. Contract:
// `claudeCodeShapeProblem` returns null for a value the host's own schema for that tool accepts
// (as observed in the real CLI: a mismatch is dropped silently), else what is wrong. Built-in
// tools take exactly their fields — an extra one such as `persistedOutputPath` changes what the
// model sees — and MCP tools a string or an array of text blocks. `doctor` and the tests use it.

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

function exactKeys(v: Obj, required: string[], optional: string[] = []): string | null {
  for (const k of required) if (!(k in v)) return `missing "${k}"`;
  for (const k of Object.keys(v))
    if (!required.includes(k) && !optional.includes(k)) return `unexpected "${k}"`;
  return null;
}

const nonNegInt = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0;

export function claudeCodeShapeProblem(toolName: string, value: unknown): string | null {
  if (toolName.startsWith("mcp__")) {
    if (typeof value === "string") return null;
    if (
      Array.isArray(value) &&
      value.every(
        (b) => isObj(b) && b.type === "text" && typeof b.text === "string" && Object.keys(b).length === 2,
      )
    )
      return null;
    return 'an MCP tool\'s output must be a string or an array of {type: "text", text} blocks';
  }
  if (!isObj(value)) return "not an object";
  switch (toolName) {
    case "Bash": {
      const keys = exactKeys(value, ["stdout", "stderr", "interrupted"]);
      if (keys) return `Bash: ${keys}`;
      if (
        typeof value.stdout !== "string" ||
        typeof value.stderr !== "string" ||
        typeof value.interrupted !== "boolean"
      )
        return "Bash: stdout and stderr must be strings, interrupted a boolean";
      return null;
    }
    case "Read": {
      const keys = exactKeys(value, ["type", "file"]);
      if (keys) return `Read: ${keys}`;
      if (value.type !== "text" || !isObj(value.file)) return 'Read: type must be "text" and file an object';
      const f = value.file;
      const fk = exactKeys(f, ["filePath", "content", "numLines", "startLine", "totalLines"]);
      if (fk) return `Read.file: ${fk}`;
      if (typeof f.filePath !== "string" || typeof f.content !== "string")
        return "Read.file: filePath and content must be strings";
      if (![f.numLines, f.startLine, f.totalLines].every(nonNegInt))
        return "Read.file: line counts must be whole numbers";
      return null;
    }
    case "Grep": {
      const keys = exactKeys(value, ["numFiles", "filenames"], ["mode", "content", "numLines"]);
      if (keys) return `Grep: ${keys}`;
      if (
        !nonNegInt(value.numFiles) ||
        !Array.isArray(value.filenames) ||
        !value.filenames.every((f) => typeof f === "string")
      )
        return "Grep: numFiles must be a whole number and filenames a list of strings";
      if (value.mode !== undefined && value.mode !== "content") return 'Grep: mode must be "content"';
      if (value.content !== undefined && typeof value.content !== "string")
        return "Grep: content must be a string";
      if (value.numLines !== undefined && !nonNegInt(value.numLines))
        return "Grep: numLines must be a whole number";
      return null;
    }
    default:
      return `${toolName}: no known accepted shape`;
  }
}
