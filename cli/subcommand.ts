/**
 * Finds the subcommand in a command line wherever the flags put it: `reika --cwd ../vue map` is
 * `reika map` in ../vue, not a turn with the prompt "map". A bare word that is not a subcommand
 * and looks like a mistyped one is refused rather than sent to the model as a task.
 */

/** The subcommands `reika` knows, each run by its own module. */
export const SUBCOMMANDS = ['index', 'map', 'undo', 'sessions', 'doctor', 'engine', 'config', 'acp', 'completion'] as const;
export type Subcommand = (typeof SUBCOMMANDS)[number];

/** Session flags that take a value: their value is never the subcommand. */
const VALUED = new Set(['--profile', '--mode', '--approvals', '--cwd', '-C', '--resume']);

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
    if (VALUED.has(arg)) {
      if (arg !== '--resume') i++;
      else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-')) i++;
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

/** A subcommand within two edits of a lone lowercase word (`mpa`, `doctr`, `sesions`), if any. */
function closeTo(word: string): Subcommand | undefined {
  if (!/^[a-z]{2,12}$/.test(word)) return undefined;
  return SUBCOMMANDS.find((name) => editDistance(word, name) <= Math.min(2, name.length - 2));
}

/** Edits between two words, a swap of neighbours counting as one (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}
