import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SETTINGS } from '../../../actors/settings/declarations.js';

/**
 * The house rule of one typed configuration, kept by a test: outside `actors/config/` and the
 * declarations under it (`actors/settings/`) no source file reads a `REIKA_*` variable, and only the CLI loads the configuration (once at start and per
 * `/cd`). Every `REIKA_*` name the sources mention is declared. Read from the TypeScript sources.
 */

const repo = fileURLToPath(new URL('../../../../', import.meta.url));

function sources(folder: string): string[] {
  return readdirSync(join(repo, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(repo, join(entry.parentPath, entry.name)));
}

const all = ['actors', 'cli', 'runtime', 'workers'].flatMap(sources);

test('no source file outside actors/config and actors/settings reads a REIKA_ variable', (t) => {
  // `-m NAME` is the one flag that sets a variable, REIKA_MODEL, for the configuration to read.
  const offenders = all
    .filter((file) => !file.startsWith('actors/config/') && !file.startsWith('actors/settings/') && file !== 'cli/model-option.ts')
    .filter((file) => /\benv\.REIKA_|\benv\[['"`]REIKA_|\.values\.REIKA_|\.values\[/.test(readFileSync(join(repo, file), 'utf8')));
  t.deepEqual(offenders, []);
});

test('only the CLI loads the configuration; the actors are handed it', (t) => {
  const loaders = all.filter((file) => !file.startsWith('actors/config/') && /\bloadConfig\(/.test(readFileSync(join(repo, file), 'utf8')));
  t.true(loaders.length > 0);
  t.deepEqual(loaders.filter((file) => !file.startsWith('cli/')), []);
});

test('every REIKA_ setting the sources name is declared once', (t) => {
  const declared = new Set<string>(SETTINGS.map((setting) => setting.env));
  t.is(declared.size, SETTINGS.length, 'no variable is declared twice');
  t.is(new Set(SETTINGS.map((setting) => setting.key)).size, SETTINGS.length, 'no settings key is declared twice');
  const named = new Set<string>();
  for (const file of all) for (const match of readFileSync(join(repo, file), 'utf8').matchAll(/\bREIKA_[A-Z0-9_]*[A-Z0-9]\b/g)) named.add(match[0]);
  // Error codes, and the profile variables REIKA_<NAME>_* spelled in help texts.
  const undeclared = [...named].filter((name) => !declared.has(name) && !name.startsWith('REIKA_ERR_'));
  t.deepEqual(undeclared.sort(), []);
});
