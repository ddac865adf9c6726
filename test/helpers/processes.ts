import { readdirSync, readFileSync } from 'node:fs';

/** True while `pid` runs (a zombie counts as gone). */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Live processes whose command line is exactly `args` — found by command line because a command
 * in the sandbox's PID namespace prints pids (`$!`, `$$`) that are not the ones seen out here.
 */
export function processesRunning(...args: string[]): number[] {
  const cmdline = `${args.join('\0')}\0`;
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && running(Number(entry))).filter((entry) => {
    try {
      return readFileSync(`/proc/${entry}/cmdline`, 'latin1') === cmdline;
    } catch {
      return false;
    }
  }).map(Number);
}
