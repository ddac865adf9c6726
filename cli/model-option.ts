/**
 * `--model X` / `-m X` / `--model=X`: REIKA_MODEL for this run (the environment wins over the
 * .env files, so this wins too). Returns the other arguments, or an error sentence.
 */
export function takeModelOption(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): string[] | { error: string } {
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--model' || arg === '-m' || arg.startsWith('--model=')) {
      const value = arg.startsWith('--model=') ? arg.slice('--model='.length) : argv[++i];
      if (!value || (value.startsWith('-') && value.length > 1)) return { error: `${arg} needs a model name or a .gguf file` };
      env.REIKA_MODEL = value;
    } else rest.push(arg);
  }
  return rest;
}
