import { readFileSync } from 'node:fs';
import { listProcesses, processesWithMarker, procfsAvailable } from './procfs.js';

/** Environment variable that marks every process a command starts (children inherit it). */
export const MARKER_VARIABLE = 'REIKA_TOOL_OWNER';
/** Between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 300;
const POLL_MS = 20;

/**
 * The process groups of running `bash` calls. Each command runs detached as its own group and
 * carries a marker `<supervisor pid>:<executor pid>:<call>` in its environment; killing a call
 * sends SIGTERM to the group and to marked processes that left it, then SIGKILL after a grace.
 * A new executor kills what a crashed executor under the same supervisor left behind (marked
 * processes whose executor is gone), and nothing of a live one.
 */
export class ProcessGroups {
  private readonly running = new Map<number, string>();
  private sequence = 0;
  readonly ownerPrefix: string;

  constructor(
    readonly executorPid = process.pid,
    ownerPid = process.ppid,
  ) {
    this.ownerPrefix = `${ownerPid}:`;
  }

  /** A marker for a new command. */
  nextMarker(): string {
    return `${this.ownerPrefix}${this.executorPid}:${++this.sequence}`;
  }

  add(pgid: number, marker: string): void {
    this.running.set(pgid, marker);
  }

  delete(pgid: number): void {
    this.running.delete(pgid);
  }

  get size(): number {
    return this.running.size;
  }

  /** True while a live (non-zombie) process of the group or with the marker exists. */
  alive(pgid: number, marker: string): boolean {
    if (!procfsAvailable) {
      try {
        process.kill(-pgid, 0);
        return true;
      } catch {
        return false;
      }
    }
    return this.members(pgid, marker).length > 0;
  }

  /** SIGTERM, then SIGKILL after the grace; resolves when nothing of the command is left. */
  async kill(pgid: number, marker: string, graceMs = KILL_GRACE_MS): Promise<void> {
    this.signal(pgid, marker, 'SIGTERM');
    if (await this.waitGone(pgid, marker, graceMs)) return this.delete(pgid);
    this.signal(pgid, marker, 'SIGKILL');
    await this.waitGone(pgid, marker, 2_000);
    this.delete(pgid);
  }

  /** Kills every running command (executor dispose). */
  async killAll(): Promise<void> {
    await Promise.all([...this.running].map(([pgid, marker]) => this.kill(pgid, marker)));
  }

  /** Kills what executors under the same supervisor that are gone now left running; returns their pids. */
  reapLeftovers(): number[] {
    if (!procfsAvailable) return [];
    const processes = listProcesses();
    const live = new Set(processes.filter((p) => p.state !== 'Z').map((p) => p.pid));
    const killed: number[] = [];
    for (const pid of processesWithMarker(MARKER_VARIABLE, this.ownerPrefix, processes)) {
      const executor = Number(this.markerOf(pid)?.split(':')[1]);
      if (executor === this.executorPid || live.has(executor)) continue;
      trySignal(pid, 'SIGKILL');
      killed.push(pid);
    }
    return killed;
  }

  /**
   * reapLeftovers, resolving once the killed processes are dead (a SIGKILL is delivered, not
   * done, when kill() returns: on a busy machine a process lives on for a moment) or after 2 s.
   */
  async reapLeftoversAndWait(): Promise<number> {
    const killed = this.reapLeftovers();
    const deadline = Date.now() + 2_000;
    const living = () => {
      const live = new Set(listProcesses().filter((p) => p.state !== 'Z').map((p) => p.pid));
      return killed.filter((pid) => live.has(pid));
    };
    while (living().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    return killed.length;
  }

  private markerOf(pid: number): string | undefined {
    try {
      const environ = environOf(pid);
      return environ.find((entry) => entry.startsWith(`${MARKER_VARIABLE}=`))?.slice(MARKER_VARIABLE.length + 1);
    } catch {
      return undefined;
    }
  }

  private members(pgid: number, marker: string): number[] {
    const processes = listProcesses().filter((p) => p.state !== 'Z');
    const inGroup = processes.filter((p) => p.pgid === pgid).map((p) => p.pid);
    const marked = processesWithMarker(MARKER_VARIABLE, marker, processes).filter((pid) => this.markerOf(pid) === marker);
    return [...new Set([...inGroup, ...marked])];
  }

  private signal(pgid: number, marker: string, signal: NodeJS.Signals): void {
    trySignal(-pgid, signal);
    if (procfsAvailable) for (const pid of this.members(pgid, marker)) trySignal(pid, signal);
  }

  private async waitGone(pgid: number, marker: string, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (;;) {
      if (!this.alive(pgid, marker)) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}

function trySignal(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

function environOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
}
