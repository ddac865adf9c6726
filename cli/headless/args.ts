/** `reika -p "PROMPT" [--json | --stream]`, or the prompt on stdin. */
export interface HeadlessArgs {
  /** Undefined: read the prompt from stdin. */
  prompt?: string;
  output: 'text' | 'json' | 'stream';
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export function parseHeadlessArgs(argv: readonly string[]): HeadlessArgs {
  let prompt: string | undefined;
  let output: HeadlessArgs['output'] = 'text';
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-p' || arg === '--prompt') {
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
  return { prompt, output };
}
