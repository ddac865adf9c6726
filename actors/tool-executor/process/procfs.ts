import { readdirSync, readFileSync } from 'node:fs';

// A Linux-only look at running processes through /proc, used to make sure a killed command left
// nothing behind: zombies count as gone, and processes that left the group (setsid) are still
// found by the marker in their environment. Elsewhere these return empty lists.

export interface ProcessInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** `R`, `S`, `Z`… */
  state: string;
}

export function listProcesses(): ProcessInfo[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcessInfo[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      // The command name is in parentheses and may contain spaces: fields start after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({ pid: Number(entry), state: fields[0]!, ppid: Number(fields[1]), pgid: Number(fields[2]) });
    } catch {
      // vanished meanwhile
    }
  }
  return out;
}

/** Pids whose environment holds `name=value…` with a value starting with `prefix`. */
export function processesWithMarker(name: string, prefix: string, among: ProcessInfo[] = listProcesses()): number[] {
  const needle = Buffer.from(`\0${name}=${prefix}`);
  const pids: number[] = [];
  for (const info of among) {
    if (info.state === 'Z' || info.pid === process.pid) continue;
    try {
      const environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${info.pid}/environ`)]);
      if (environ.includes(needle)) pids.push(info.pid);
    } catch {
      // not ours to read, or gone
    }
  }
  return pids;
}

export const procfsAvailable = (() => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();
