import { readSessionFlag, UsageError, type SessionFlags } from '../session-flags.js';

export { UsageError };

/** `reika -p "PROMPT" [--json | --stream] [session flags]`, or the prompt on stdin. */
export interface HeadlessArgs {
  /** Undefined: read the prompt from stdin. */
  prompt?: string;
  output: 'text' | 'json' | 'stream';
  /** `--model`, `--profile`, `--mode`, `--approvals`, `--cwd`. */
  flags: SessionFlags;
}

export function parseHeadlessArgs(argv: readonly string[]): HeadlessArgs {
  let prompt: string | undefined;
  let output: HeadlessArgs['output'] = 'text';
  const flags: SessionFlags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const taken = readSessionFlag(argv, i, flags);
    if (taken > 0) {
      i += taken - 1;
    } else if (arg === '-p' || arg === '--prompt') {
      const next = argv[i + 1];
      if (next !== undefined && !(next.startsWith('-') && next.length > 1)) {
        prompt = next;
        i++;
      }
    } else if (arg.startsWith('--prompt=')) {
      prompt = arg.slice('--prompt='.length);
    } else if (arg === '--json' || arg === '--stream') {
      const wanted = arg === '--json' ? 'json' : 'stream';
      if (output !== 'text' && output !== wanted) throw new UsageError('--json and --stream cannot be used together');
      output = wanted;
    } else if (arg.startsWith('-') && arg !== '-') {
      throw new UsageError(`unknown option ${arg} (see reika --help)`);
    } else if (prompt === undefined) {
      prompt = arg;
    } else {
      throw new UsageError(`unexpected argument "${arg}": quote the whole prompt`);
    }
  }
  return { prompt, output, flags };
}
