import { describe, expect, it } from "vitest";
import {
  appendElement,
  parseSettings,
  removeAt,
  replaceElement,
  SettingsFileError,
  setMember,
} from "./jsonEdit.js";

const F = "settings.json";
const HOOK = { matcher: "Bash", hooks: [{ type: "command", command: "c hook claude-code" }] };

const COMMENTED = `{
    // my own settings, with a comment
    "model": "opus",
    "permissions": { "allow": ["Bash(ls:*)"] },   /* trailing */
    "hooks": {
        "PreToolUse": [ { "matcher": "Bash", "hooks": [ { "type": "command", "command": "audit.sh" } ] } ]
    }
}
`;

describe("minimal JSON edits", () => {
  it("add a list beside a user's entries and take it away again, byte for byte, comments included", () => {
    const added = appendElement(F, COMMENTED, ["hooks", "PostToolUse"], HOOK);
    // Everything before the insertion point is untouched, and so is everything after it.
    const at = added.indexOf(',\n        "PostToolUse"');
    expect(added.slice(0, at)).toBe(COMMENTED.slice(0, at));
    expect(added.endsWith(COMMENTED.slice(at))).toBe(true);
    expect(added).toContain('        "PostToolUse": [\n            {\n                "matcher": "Bash",');
    expect(parseSettings(F, added).hooks).toMatchObject({ PostToolUse: [HOOK] });
    expect(removeAt(F, added, ["hooks", "PostToolUse"])).toBe(COMMENTED);
  });

  it("append to an existing list and remove that element only, whatever its position", () => {
    const start =
      '{\n\t"hooks": {\n\t\t"PostToolUse": [\n\t\t\t{"matcher": "X", "hooks": []}\n\t\t]\n\t}\n}\n';
    const two = appendElement(F, start, ["hooks", "PostToolUse"], HOOK);
    expect(
      two.startsWith(
        '{\n\t"hooks": {\n\t\t"PostToolUse": [\n\t\t\t{"matcher": "X", "hooks": []},\n\t\t\t{\n\t\t\t\t"matcher"',
      ),
    ).toBe(true);
    expect(removeAt(F, two, ["hooks", "PostToolUse", 1])).toBe(start);
    const three = appendElement(F, two, ["hooks", "PostToolUse"], { matcher: "Y", hooks: [] });
    const withoutOurs = removeAt(F, three, ["hooks", "PostToolUse", 1]);
    expect(parseSettings(F, withoutOurs)).toEqual({
      hooks: {
        PostToolUse: [
          { matcher: "X", hooks: [] },
          { matcher: "Y", hooks: [] },
        ],
      },
    });
    // Removing ours from the middle leaves what the user would have had without it.
    expect(withoutOurs).toBe(appendElement(F, start, ["hooks", "PostToolUse"], { matcher: "Y", hooks: [] }));
  });

  it("keep a one-line file on one line, and its CRLF line endings", () => {
    const inline = '{"numStartups": 12, "mcpServers": {"other": {"command": "x"}}}';
    const added = setMember(F, inline, ["mcpServers", "caveman"], { command: "node" });
    expect(added).toBe(
      '{"numStartups": 12, "mcpServers": {"other": {"command": "x"}, "caveman": {"command":"node"}}}',
    );
    expect(removeAt(F, added, ["mcpServers", "caveman"])).toBe(inline);
    // An upgrade replaces it where it stands, still on the one line.
    expect(setMember(F, added, ["mcpServers", "caveman"], { command: "npx" })).toBe(
      added.replace('"node"', '"npx"'),
    );
    const crlf = '{\r\n  "a": 1\r\n}\r\n';
    const b = setMember(F, crlf, ["b", "c"], [1]);
    expect(b).toBe('{\r\n  "a": 1,\r\n  "b": {\r\n    "c": [\r\n      1\r\n    ]\r\n  }\r\n}\r\n');
    expect(removeAt(F, b, ["b"])).toBe(crlf);
  });

  it("fill an empty object or list, and keep a comment that sits inside it", () => {
    expect(setMember(F, "{}\n", ["mcpServers", "caveman"], { command: "n" })).toBe(
      '{\n  "mcpServers": {\n    "caveman": {\n      "command": "n"\n    }\n  }\n}\n',
    );
    const commented = '{\n  "hooks": { /* mine */ }\n}\n';
    const out = setMember(F, commented, ["hooks", "X"], 1);
    expect(out).toContain("/* mine */");
    expect(parseSettings(F, out)).toEqual({ hooks: { X: 1 } });
  });

  it("replace an element in place without touching its neighbours", () => {
    const start = '{ "l": [ 1,\n  {"a": 1},\n  3 ] }';
    expect(replaceElement(F, start, ["l"], 1, { a: 2 })).toBe('{ "l": [ 1,\n  {\n    "a": 2\n  },\n  3 ] }');
  });

  it("refuse what is not an object or not a list, with a stable code", () => {
    for (const bad of ["[]", "{ nope", "", "null", '"x"'])
      expect(() => setMember(F, bad, ["a"], 1)).toThrow(SettingsFileError);
    try {
      appendElement(F, '{"hooks": {"PostToolUse": {}}}', ["hooks", "PostToolUse"], 1);
      expect.unreachable();
    } catch (err) {
      expect((err as SettingsFileError).code).toBe("settings_not_list");
    }
  });
});
