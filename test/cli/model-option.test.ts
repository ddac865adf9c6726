import test from 'ava';
import { takeModelOption } from '../../cli/model-option.js';

test('--model, -m and --model= set REIKA_MODEL for the run and leave the other arguments', (t) => {
  const cases: Array<[string[], string[]]> = [
    [['--model', 'a.gguf', '-p', 'hi'], ['-p', 'hi']],
    [['-p', 'hi', '-m', 'a.gguf', '--json'], ['-p', 'hi', '--json']],
    [['--model=a.gguf'], []],
  ];
  for (const [argv, rest] of cases) {
    const env: NodeJS.ProcessEnv = { REIKA_MODEL: 'from-env' };
    t.deepEqual(takeModelOption(argv, env), rest);
    t.is(env.REIKA_MODEL, 'a.gguf');
  }
  t.deepEqual(takeModelOption(['-m'], {}), { error: '-m needs a model name or a .gguf file' });
  t.deepEqual(takeModelOption(['--model', '--json'], {}), { error: '--model needs a model name or a .gguf file' });
});
