// Is the process that left a lock or temp file still running? Contract: `pidAlive` answers false
// only when the operating system says no such process exists (ESRCH); a process we may not
// signal (EPERM) is alive. `whoAmI` identifies this process well enough to tell a lock of ours
// from one left by an earlier process that had the same pid: host name, pid namespace (Linux) and
// the process's start time in clock ticks since boot (Linux), besides the pid.

import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";

export function pidAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** Start time of `pid` in clock ticks since boot (field 22 of /proc/<pid>/stat), or "" where unknown. */
function startTime(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? "";
  } catch {
    return "";
  }
}

function pidNamespace(): string {
  try {
    return readlinkSync("/proc/self/ns/pid");
  } catch {
    return "";
  }
}

export interface Owner {
  pid: number;
  host: string;
  ns: string;
  start: string;
}

let me: Owner | undefined;

export function whoAmI(): Owner {
  me ??= { pid: process.pid, host: hostname(), ns: pidNamespace(), start: startTime(process.pid) };
  return me;
}

/**
 * "dead": provably no longer running (same host and pid namespace; pid gone or reused by a
 * process that started at another time). "alive": running. "unknown": another host or pid
 * namespace, where liveness cannot be observed.
 */
export function ownerState(owner: Owner): "alive" | "dead" | "unknown" {
  const self = whoAmI();
  if (owner.host !== self.host || owner.ns !== self.ns) return "unknown";
  if (!pidAlive(owner.pid)) return "dead";
  if (owner.start !== "" && self.start !== "") {
    const now = startTime(owner.pid);
    if (now !== "" && now !== owner.start) return "dead";
  }
  return "alive";
}
