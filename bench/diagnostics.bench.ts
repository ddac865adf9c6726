import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Diagnostics } from '../actors/lsp/diagnostics.js';
import { Supervisor } from '../runtime/supervisor.js';
import { fmt, percentile, row } from './stats.js';

// Diagnostics after an edit, warm: a generated 200-file TypeScript project (each file imports the
// one before it), typescript-language-server with reika's typescript, one edit to warm the server,
// then edits of a file in the middle that alternate between adding a type error and taking it
// out; the wall time of `after` (the edit's result waits for it). Reference: `tsc --noEmit` of the
// same project, one full check.

const FILES = 200;
const EDITS = 20;

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'reika-bench-lsp-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'nodenext', noEmit: true }, include: ['src'] }));
  for (let i = 0; i < FILES; i++) {
    const previous = i === 0 ? '' : `import { value${i - 1}, Shape${i - 1} } from './file${i - 1}.js';\n`;
    const body = i === 0 ? 'export const value0 = 0;\nexport interface Shape0 { id: number; name: string }\n' : `export const value${i}: number = value${i - 1} + 1;\nexport interface Shape${i} extends Shape${i - 1} { field${i}: string }\nexport function make${i}(base: Shape${i - 1}): Shape${i} {\n  return { ...base, field${i}: String(value${i}) };\n}\n`;
    writeFileSync(join(root, 'src', `file${i}.ts`), `${previous}${body}`);
  }
  return root;
}

function tsc(root: string): Promise<number> {
  const bin = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  const started = performance.now();
  return new Promise((resolve) => execFile(process.execPath, [bin, '--noEmit', '-p', root], () => resolve(performance.now() - started)));
}

export default async function (): Promise<void> {
  const root = project();
  const supervisor = new Supervisor();
  const diagnostics = new Diagnostics({ supervisor, waitMs: 60_000, env: { PATH: '' } });
  try {
    const file = join(root, 'src', `file${FILES / 2}.ts`);
    const clean = `import { value${FILES / 2 - 1}, Shape${FILES / 2 - 1} } from './file${FILES / 2 - 1}.js';\nexport const value${FILES / 2}: number = value${FILES / 2 - 1} + 1;\nexport interface Shape${FILES / 2} extends Shape${FILES / 2 - 1} { field${FILES / 2}: string }\nexport function make${FILES / 2}(base: Shape${FILES / 2 - 1}): Shape${FILES / 2} {\n  return { ...base, field${FILES / 2}: String(value${FILES / 2}) };\n}\n`;
    const broken = clean.replace('String(value', '(value');
    const edit = async (text: string) => {
      await diagnostics.before(root, file);
      writeFileSync(file, text);
      const started = performance.now();
      const lines = await diagnostics.after(root, file);
      return { ms: performance.now() - started, lines };
    };
    const first = await edit(broken);
    await edit(clean);
    const samples: number[] = [];
    let reported = 0;
    for (let i = 0; i < EDITS; i++) {
      const { ms, lines } = await edit(i % 2 === 0 ? broken : clean);
      samples.push(ms);
      if (lines) reported++;
    }
    samples.sort((a, b) => a - b);
    const full = await tsc(root);
    row(`diagnostics after an edit, ${FILES}-file TS project, warm p50`, `${fmt(percentile(samples, 50), 0)} ms`, `${fmt(full, 0)} ms`, percentile(samples, 50) / full, '≤ 1000 ms');
    row('  the same, p95 (budget REIKA_DIAGNOSTICS_MS 3 s)', `${fmt(percentile(samples, 95), 0)} ms`, 'tsc --noEmit', percentile(samples, 95) / full, '≤ 3000 ms');
    row('  first edit, cold server (reported an error)', `${fmt(first.ms, 0)} ms`, first.lines ? 'yes' : 'no', undefined);
    row('  edits that added an error and were reported', `${reported} / ${EDITS / 2}`, '', undefined);
  } finally {
    await supervisor.close();
    rmSync(root, { recursive: true, force: true });
  }
}
