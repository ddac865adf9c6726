import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO as repo, sourceFiles } from './helpers/source-files.js';

// How the sources' comments are kept (STYLE.md, "Comments and dependencies"): a file's opening
// description is a plain comment, and comments say why in present terms, not which issue found it.



const all = ['actors', 'cli', 'runtime', 'workers', 'bench', 'scripts'].flatMap(sourceFiles);

/** The line of the first statement after the imports (and plain comments), or -1. */
function afterImports(lines: string[]): number {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('//') || line.startsWith('#!')) continue;
    if (line.startsWith('/*') && !line.startsWith('/**')) {
      while (i < lines.length && !lines[i]!.includes('*/')) i++;
      continue;
    }
    if (/^import\b/.test(line) || (/^export (type )?(\{|\*)/.test(line) && line.includes(' from '))) {
      while (i < lines.length && !/'[^']*';\s*(\/\/.*)?$/.test(lines[i]!)) i++;
      continue;
    }
    return i;
  }
  return -1;
}

test('no file opens with a doc comment set apart by a blank line: it would document the first declaration, not the file', (t) => {
  const offenders: string[] = [];
  for (const file of all) {
    const lines = readFileSync(join(repo, file), 'utf8').split('\n');
    const start = afterImports(lines);
    if (start < 0 || !lines[start]!.trim().startsWith('/**')) continue;
    let end = start;
    while (!lines[end]!.includes('*/')) end++;
    if (lines[end + 1]?.trim() === '') offenders.push(`${file}:${start + 1}`);
  }
  t.deepEqual(offenders, [], 'make it a // file comment, or move it onto the declaration it describes');
});

test('comments say why, not which issue or soak found it (the commit message keeps that)', (t) => {
  const offenders = all.flatMap((file) =>
    readFileSync(join(repo, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => (/(\/\/|\/\*|^\s*\*).*(\bissue \d+|\bsoak\b)/i.test(line) ? [`${file}:${i + 1}`] : [])),
  );
  t.deepEqual(offenders, []);
});

test('the rules read the tree', (t) => {
  t.true(all.length > 200);
});
