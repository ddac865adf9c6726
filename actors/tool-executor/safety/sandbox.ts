import { spawn } from 'node:child_process';
import { findProgram } from '../../find-program.js';
import type { ToolSettings } from '../protocol.js';

// Which sandbox `bash` commands run under (SPEC §12): `REIKA_SANDBOX=auto|bwrap|off`, default
// `auto`. On Linux that is bubblewrap when it is installed and may create namespaces here; on
// macOS `sandbox-exec`; else none, and the state says why. The probe runs once per process.

export type SandboxSetting = 'auto' | 'bwrap' | 'off';

export interface SandboxState {
  setting: SandboxSetting;
  /** What commands run under now. */
  kind: 'bwrap' | 'sandbox-exec' | 'none';
  /** The program's path, when there is one. */
  program?: string;
  /** Commands get a PID namespace of their own (reika's processes are not in their /proc). */
  pidNamespace?: boolean;
  /** Why there is no sandbox (or why the setting was not understood), one line. */
  note?: string;
  /** `REIKA_SANDBOX=bwrap` and bubblewrap cannot run: commands must not run unconfined. */
  required?: boolean;
}

/** Reads the setting; an unknown value falls back to `auto` with a note. */
export function sandboxSetting(value: string | undefined): { setting: SandboxSetting; note?: string } {
  const text = (value ?? '').trim().toLowerCase();
  if (text === '' || text === 'auto') return { setting: 'auto' };
  if (text === 'bwrap' || text === 'bubblewrap' || text === 'on') return { setting: 'bwrap' };
  if (text === 'off' || text === 'none' || text === '0' || text === 'false') return { setting: 'off' };
  return { setting: 'auto', note: `REIKA_SANDBOX=${value} is not auto, bwrap or off; using auto` };
}

const probes = new Map<string, Promise<SandboxState>>();

/** The sandbox for this setting, probed once per process (a fresh `bwrap … true`). */
export function sandboxState(value: string | undefined, platform: NodeJS.Platform = process.platform): Promise<SandboxState> {
  const key = `${platform}:${value ?? ''}`;
  let probe = probes.get(key);
  if (!probe) {
    probe = detect(value, platform);
    probes.set(key, probe);
  }
  return probe;
}

async function detect(value: string | undefined, platform: NodeJS.Platform): Promise<SandboxState> {
  const { setting, note } = sandboxSetting(value);
  const withNote = (state: SandboxState): SandboxState => (note ? { ...state, note: state.note ? `${note}; ${state.note}` : note } : state);
  if (setting === 'off') return withNote({ setting, kind: 'none', note: 'REIKA_SANDBOX=off: commands run unconfined' });
  if (platform === 'darwin') {
    const program = findProgram('sandbox-exec', { extra: ['/usr/bin'] });
    if (!program) return withNote({ setting, kind: 'none', note: 'sandbox-exec is not available: commands run unconfined' });
    const failure = await run(program, ['-p', '(version 1)(allow default)', '/usr/bin/true']);
    if (failure === undefined) return withNote({ setting, kind: 'sandbox-exec', program });
    return withNote({ setting, kind: 'none', note: `sandbox-exec cannot run here (${failure}): commands run unconfined` });
  }
  if (platform !== 'linux') return withNote({ setting, kind: 'none', note: `no sandbox on ${platform}: commands run unconfined` });
  const program = findProgram('bwrap', { extra: ['/usr/bin', '/usr/local/bin', '/bin'] });
  const required = setting === 'bwrap';
  if (!program) {
    return withNote({ setting, kind: 'none', required, note: `bubblewrap (bwrap) is not installed${required ? '' : ': commands run unconfined (install the bubblewrap package)'}` });
  }
  const base = ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-net', '--die-with-parent'];
  // A PID namespace of its own: the command's /proc shows none of reika's processes, so their
  // environment (`/proc/<pid>/environ`, with the user's tokens) is out of reach (SPEC §16).
  const withPid = await run(program, [...base, '--unshare-pid', '--proc', '/proc', '--', '/bin/true']);
  if (withPid === undefined) return withNote({ setting, kind: 'bwrap', program, pidNamespace: true });
  const plain = await run(program, [...base, '--proc', '/proc', '--', '/bin/true']);
  if (plain === undefined) return withNote({ setting, kind: 'bwrap', program, note: `bubblewrap cannot create a PID namespace here (${withPid}): commands see reika's processes in /proc` });
  return withNote({ setting, kind: 'none', required, program, note: `bubblewrap cannot create namespaces here (${withPid})${required ? '' : ': commands run unconfined'}` });
}

/** Runs a probe; undefined when it exits 0, else its first stderr line (or how it failed). */
function run(program: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve(error.message);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(undefined);
      else resolve(stderr.trim().split('\n')[0]?.replace(/^bwrap: /, '') || (signal ? `killed by ${signal}` : `exit code ${code}`));
    });
  });
}

/**
 * One line when bash commands run without a sandbox (said once at start), else undefined. Here,
 * not in status.ts: the start imports only this, not the checkpoint store the status reads.
 */
export async function sandboxNotice(settings: ToolSettings): Promise<string | undefined> {
  const state = await sandboxState(settings.sandbox);
  if (state.kind !== 'none' || state.setting === 'off') return undefined;
  return state.required ? `REIKA_SANDBOX=bwrap, but ${state.note}: bash commands will not run` : `no sandbox: ${state.note}`;
}
