import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findServer, ownPackage, type OwnPackage } from '../../../actors/lsp/servers.js';
import { tempDir } from '../../helpers/temp.js';

/**
 * Which language server reika finds, as an installed reika has them: typescript-language-server is
 * one of its dependencies, TypeScript and pyright are not (its checkout has them as development
 * dependencies, so what an install lacks is hidden here).
 */

/** reika's own packages as `npm install -g reika` leaves them. */
const installed: OwnPackage = (name) => (name === 'typescript' || name === 'pyright' ? undefined : ownPackage(name));
const noPath = { PATH: '' };

test('TypeScript: reika’s typescript-language-server serves a project that has typescript, here or in a folder above', (t) => {
  const monorepo = tempDir();
  mkdirSync(join(monorepo, 'node_modules/typescript/lib'), { recursive: true });
  writeFileSync(join(monorepo, 'node_modules/typescript/lib/tsserver.js'), '');
  const pkg = join(monorepo, 'packages/app');
  mkdirSync(pkg, { recursive: true });
  for (const root of [monorepo, pkg]) {
    const server = findServer('typescript', root, noPath, installed);
    t.is(server?.from, 'reika', root);
    t.is(server?.command, process.execPath);
    t.regex(server?.args.join(' ') ?? '', /typescript-language-server\/lib\/cli\.mjs --stdio$/);
  }
});

test('TypeScript: a project without typescript gets no server from an install that has none either; pyright only from the project or PATH', (t) => {
  const root = tempDir();
  t.is(findServer('typescript', root, noPath, installed), undefined);
  t.is(findServer('python', root, noPath, installed), undefined);
  // A checkout of reika has both as development dependencies, and uses them.
  t.is(findServer('typescript', root, noPath, ownPackage)?.from, 'reika');
  t.is(findServer('python', root, noPath, ownPackage)?.from, 'reika');
});
