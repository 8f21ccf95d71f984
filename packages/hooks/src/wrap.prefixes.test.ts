// Shell keywords and runner words in front of a command do not hide it: each segment of a compound
// command is judged by its real command word, so a pager, editor, follower or `cd` behind `if`,
// `do`, `!`, `builtin`, `case … in x)`, `time`, `env A=1`, `nohup`, `(` or `{` is still never
// wrapped, and an ordinary command behind them still is.
import { describe, expect, it } from "vitest";
import { DEFAULT_HOOK_SETTINGS } from "./settings.js";
import { stripPrefixes, wrapRefusal } from "./wrap.js";

const S = DEFAULT_HOOK_SETTINGS;

describe("wrapRefusal behind shell keywords", () => {
  it.each([
    ["if true; then less x; fi", "interactive"],
    ['while read l; do vim "$l"; done < files.txt', "interactive"],
    ["! tail -f log", "streaming"],
    ["builtin cd /tmp && make", "shell_state"],
    ["until false; do watch ls; done", "interactive"],
    ["if make; then echo ok; else nano notes.txt; fi", "interactive"],
    ["if a; then b; elif c; then top; fi", "interactive"],
    ['case "$1" in start) npm run dev;; esac', "streaming"],
    ['case "$1" in\n  (*.log) tail -F "$1" ;;\n  *) cat "$1" ;;\nesac', "streaming"],
    ["a || b) vim x", "interactive"],
    ["time npm run dev", "streaming"],
    ["time -p tail -f app.log", "streaming"],
    ["command -p less README.md", "interactive"],
    ["env NODE_ENV=dev vite", "streaming"],
    ["env -i PATH=/bin FOO='a b' less x", "interactive"],
    ['FOO="a b" BAR=1 vim x', "interactive"],
    ["nohup python -m http.server", "streaming"],
    ["(less x)", "interactive"],
    ["{ make; less out.txt; }", "interactive"],
    ["( cd sub && make )", "shell_state"],
    ["if ! builtin command env A=1 nohup tail -f log; then :; fi", "streaming"],
    ["eval 'cd /tmp'", "shell_state"],
    ['eval "vim x"', "interactive"],
    ['eval "$(ssh-agent -s)"', "shell_state"],
    ["eval `pyenv init -`", "shell_state"],
    ["bash -c 'less x'", "interactive"],
    ['sh -ec "tail -f log"', "streaming"],
    ["sudo -u root less /var/log/syslog", "interactive"],
    ["sudo -E tail -f log", "streaming"],
    ["nice -n 10 timeout -s KILL 30 watch df", "interactive"],
    ["exec less x", "shell_state"],
    ["if python; then :; fi", "interactive"],
  ])("%j → %s", (command, reason) => {
    expect(wrapRefusal(command, {}, S)).toBe(reason);
  });

  it.each([
    "if [ -f x ]; then make test; fi",
    'for f in *.ts; do grep -n TODO "$f"; done',
    'while read l; do echo "$l"; done < files.txt',
    "! grep -q error log",
    "time pytest -q",
    "env CI=1 npm test",
    "nohup make -j2",
    "(make && make test)",
    "{ echo a; echo b; } > out.txt",
    'case "$1" in a) make;; *) make test;; esac',
    "eval 'make test'",
    "bash -c 'pytest -q'",
    "sudo -n apt-get install -y jq",
    "timeout 60 pytest",
    "done_task.sh --then --do",
    "docker ps && ifconfig",
  ])("still wraps %j", (command) => {
    expect(wrapRefusal(command, {}, S)).toBeNull();
  });
});

describe("stripPrefixes", () => {
  it.each([
    ["if ! env A=1 tail -f log", "tail -f log"],
    ["then less x", "less x"],
    ["do", ""],
    ["case $x in", ""],
    ["(*.ts) tsc --watch", "tsc --watch"],
    ["time -p command -p builtin cd /", "cd /"],
    ["sudo -u root -E nice -n 5 nohup make", "make"],
    ["timeout -k 5 30s make", "make"],
    ["doctl apply", "doctl apply"],
    ["timeout_runner x", "timeout_runner x"],
    ["X='a b' Y=\"c d\" Z=e make", "make"],
  ])("%j → %j", (segment, rest) => {
    expect(stripPrefixes(segment)).toBe(rest);
  });
});
