import test from 'ava';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { reikaBin } from '../helpers/binary.js';

const main = reikaBin;
const run = promisify(execFile);

test('reika --version prints the package version and --help the usage', async (t) => {
  // ava runs in the project root, whichever folder the tests were compiled to.
  const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { version: string };
  const version = await run(process.execPath, [main, '--version']);
  t.is(version.stdout, `reika ${pkg.version}\n`);
  const help = await run(process.execPath, [main, '--help']);
  t.regex(help.stdout, /^reika — a terminal coding agent/);
  t.regex(help.stdout, /reika -p "PROMPT"/);
});

test('an unknown option is one line and an error exit (headless here: stdin is no terminal)', async (t) => {
  const error = (await t.throwsAsync(run(process.execPath, [main, '--frobnicate'], { env: { ...process.env } }))) as Error & { code: number; stderr: string };
  t.is(error.code, 1);
  t.is(error.stderr, 'reika: unknown option --frobnicate (see reika --help)\n');
});

test('the binary package.json names is the bundle the end-to-end tests run', (t) => {
  const { bin } = JSON.parse(readFileSync('package.json', 'utf8')) as { bin: { reika: string } };
  t.is(bin.reika, 'dist/bundle/cli/main.js');
  t.true(reikaBin.endsWith('/bundle/cli/main.js'));
});
