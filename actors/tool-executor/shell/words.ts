// Word helpers shared by the shell unwrapper and the danger rules.

export function basename(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? path : path.slice(slash + 1);
}

/** The first word that is not an option (nor the value of one in `valueOptions`), and the words after it. */
export function subcommand(args: string[], valueOptions: Set<string>): { verb: string | undefined; rest: string[] } {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return { verb: args[i + 1], rest: args.slice(i + 2) };
    if (arg.startsWith('-')) {
      if (valueOptions.has(arg)) i++;
      continue;
    }
    return { verb: arg, rest: args.slice(i + 1) };
  }
  return { verb: undefined, rest: [] };
}

/** Flags of an argument list, normalised: `-rf`, `-r -f` and `--recursive --force` alike. */
export interface Flags {
  short: Set<string>;
  long: Set<string>;
  /** Non-option arguments (everything after `--` counts as one). */
  operands: string[];
}

export function readFlags(args: string[], withValue: Set<string> = new Set()): Flags {
  const flags: Flags = { short: new Set(), long: new Set(), operands: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      flags.operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      flags.long.add(arg.slice(2).split('=')[0]!);
      if (withValue.has(arg) && !arg.includes('=')) i++;
    } else if (arg.startsWith('-') && arg.length > 1) {
      for (const char of arg.slice(1)) flags.short.add(char);
      if (withValue.has(arg)) i++;
    } else {
      flags.operands.push(arg);
    }
  }
  return flags;
}
