import { VALUED } from './flag-names.js';
import { closest } from './slash/suggest.js';

/** The subcommands `reika` knows, each run by its own module. */
export const SUBCOMMANDS = ['index', 'map', 'undo', 'sessions', 'doctor', 'engine', 'config', 'acp', 'completion'] as const;
/**
 * Finds the subcommand in a command line wherever the flags put it: `reika --cwd ../vue map` is
 * `reika map` in ../vue, not a turn with the prompt "map". A bare word that is not a subcommand
 * and looks like a mistyped one is refused rather than sent to the model as a task.
 */
export type Subcommand = (typeof SUBCOMMANDS)[number];


export type Located =
  | { kind: 'subcommand'; name: Subcommand; args: string[]; cwd?: string }
  | { kind: 'session' }
  | { kind: 'error'; message: string };

/**
 * Reads `argv` (after `--model` was taken out): the first word that is not a flag or a flag's
 * value. A subcommand gets the other arguments, with `--cwd DIR` / `-C DIR` taken out as the
 * folder to run in (except for `doctor` and `acp`, which read their own). A one-word task given without
 * `-p` that is close to a subcommand's name is an error naming the command meant.
 */
export function locateSubcommand(argv: readonly string[]): Located {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-p' || arg === '--prompt' || arg.startsWith('--prompt=') || arg === '--') return { kind: 'session' };
    // A flag's value is never the subcommand.
    if (arg in VALUED || (arg === '--resume' && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-'))) {
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    if ((SUBCOMMANDS as readonly string[]).includes(arg)) return subcommand(arg as Subcommand, [...argv.slice(0, i), ...argv.slice(i + 1)]);
    const meant = closeTo(arg);
    if (meant) return { kind: 'error', message: `"${arg}" is not a command; did you mean reika ${meant}? (to give it as a task: reika -p "${arg}")` };
    return { kind: 'session' };
  }
  return { kind: 'session' };
}

function subcommand(name: Subcommand, others: string[]): Located {
  if (name === 'doctor' || name === 'acp') return { kind: 'subcommand', name, args: others };
  const args: string[] = [];
  let cwd: string | undefined;
  for (let i = 0; i < others.length; i++) {
    const arg = others[i]!;
    if ((arg === '--cwd' || arg === '-C') && others[i + 1] !== undefined) cwd = others[++i];
    else if (arg.startsWith('--cwd=')) cwd = arg.slice('--cwd='.length);
    else args.push(arg);
  }
  return { kind: 'subcommand', name, args, ...(cwd !== undefined ? { cwd } : {}) };
}

/** The subcommand a lone lowercase word (`mpa`, `doctr`, `sesions`) most likely meant, if any. */
function closeTo(word: string): Subcommand | undefined {
  return /^[a-z]{2,12}$/.test(word) ? (closest(word, SUBCOMMANDS) as Subcommand | undefined) : undefined;
}
