import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { findProfile, type Config } from '../actors/config/load-config.js';
import { ConfigError } from '../actors/settings/parse.js';
import { VALUED } from './flag-names.js';
import { errorClass } from '../runtime/errors.js';

/** A command line the user can fix: one sentence, exit 2 (interactive) or 1 (headless). */
export class UsageError extends errorClass('REIKA_ERR_USAGE') {}

/**
 * The flags every session takes, interactive or headless: `--profile NAME`, `--mode agent|plan`,
 * `--approvals safe|off`, `--cwd DIR` (`--model`/`-m` is read first, in main: `model-option.ts`).
 * They win over the environment and the `.env` files. `bypass` stays environment-only
 * (REIKA_AUTO_APPROVE), never a flag.
 */
export interface SessionFlags {
  profile?: string;
  mode?: 'agent' | 'plan';
  approvals?: 'safe' | 'off';
  cwd?: string;
  /** `--continue` / `-c`: the newest session of this folder. */
  continue?: boolean;
  /** `--resume ID`, or `true` for `--resume` alone (the picker). */
  resume?: string | true;
}


/**
 * Reads the session flag at `argv[i]` into `flags`; returns how many arguments it took (0 when
 * `argv[i]` is not a session flag). Throws {@link UsageError} for a missing or bad value.
 */
export function readSessionFlag(argv: readonly string[], i: number, flags: SessionFlags): number {
  const arg = argv[i]!;
  if (arg === '--continue' || arg === '-c') {
    if (flags.resume !== undefined) throw new UsageError('--continue and --resume cannot be used together');
    flags.continue = true;
    return 1;
  }
  if (arg === '--resume' || arg.startsWith('--resume=')) {
    if (flags.continue) throw new UsageError('--continue and --resume cannot be used together');
    const inline = arg.startsWith('--resume=') ? arg.slice('--resume='.length) : undefined;
    if (inline !== undefined) {
      if (inline === '') throw new UsageError('--resume= needs a session id (reika sessions lists them)');
      flags.resume = inline;
      return 1;
    }
    const next = argv[i + 1];
    if (next === undefined || next.startsWith('-')) {
      flags.resume = true;
      return 1;
    }
    flags.resume = next;
    return 2;
  }
  const eq = arg.indexOf('=');
  const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
  const key = VALUED[name];
  if (!key) return 0;
  const inline = name !== arg ? arg.slice(eq + 1) : undefined;
  const value = inline ?? argv[i + 1];
  if (value === undefined || value === '' || (inline === undefined && value.startsWith('-'))) throw new UsageError(`${name} needs a value (see reika --help)`);
  switch (key) {
    case 'mode':
      if (value !== 'agent' && value !== 'plan') throw new UsageError(`--mode must be agent or plan, not "${value}"`);
      flags.mode = value;
      break;
    case 'approvals': {
      const mode = value.toLowerCase();
      if (mode === 'bypass' || mode === 'yolo') throw new UsageError('--approvals takes safe or off; bypass is only available through the environment: REIKA_AUTO_APPROVE=bypass');
      if (mode !== 'safe' && mode !== 'off') throw new UsageError(`--approvals must be safe or off, not "${value}"`);
      flags.approvals = mode;
      break;
    }
    default:
      flags[key] = value;
  }
  return inline === undefined ? 2 : 1;
}

/** `reika [flags]`: the interactive command line, session flags only. */
export function parseInteractiveArgs(argv: readonly string[]): SessionFlags {
  const flags: SessionFlags = {};
  for (let i = 0; i < argv.length; ) {
    const taken = readSessionFlag(argv, i, flags);
    if (taken === 0) {
      const arg = argv[i]!;
      throw new UsageError(arg.startsWith('-') ? `unknown option ${arg} (see reika --help)` : `unexpected argument "${arg}" (reika -p "PROMPT" runs one task; see reika --help)`);
    }
    i += taken;
  }
  return flags;
}

/** `--cwd DIR`: the folder the session works in, checked (one sentence when it is not a folder). */
export function sessionFolder(flags: SessionFlags, cwd = process.cwd()): string {
  if (flags.cwd === undefined) return cwd;
  const folder = resolve(cwd, flags.cwd);
  let isDirectory = false;
  try {
    isDirectory = statSync(folder).isDirectory();
  } catch {
    // reported below
  }
  if (!isDirectory) throw new UsageError(`--cwd ${flags.cwd}: no such folder`);
  return folder;
}

/** The configuration with the flags applied: `--profile` picks the active profile, `--approvals` the mode. */
export function applySessionFlags(config: Config, flags: SessionFlags): Config {
  let active = config.active;
  if (flags.profile !== undefined) {
    const found = findProfile(config, flags.profile);
    if (!found) throw new ConfigError(`--profile ${flags.profile}: no such profile (profiles: ${config.profiles.map((p) => p.name).join(', ')}; add one with REIKA_PROFILES)`);
    active = found;
  }
  // What a flag set is said to come from it (`reika config`, `/config`).
  const origins = { ...config.origins };
  if (flags.profile !== undefined) origins.REIKA_PROFILE = { value: active.name, from: [{ kind: 'command line', flag: '--profile' }] };
  if (flags.approvals) origins.REIKA_AUTO_APPROVE = { value: flags.approvals, from: [{ kind: 'command line', flag: '--approvals' }] };
  return { ...config, active, origins, ...(flags.approvals ? { approvals: flags.approvals } : {}) };
}
