import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Diagnostics } from '../actors/lsp/diagnostics.js';
import { Supervisor } from '../runtime/supervisor.js';
import { breakFile, fileText, typescriptProject } from './fixtures/ts-project.js';
import { fmt, percentile, row } from './stats.js';

// Diagnostics after an edit, warm: a generated 200-file TypeScript project (fixtures/ts-project.ts,
// each file imports the one before it), typescript-language-server with reika's typescript, one
// edit to warm the server, then edits of a file in the middle that alternate between adding a type
// error and taking it out; the wall time of `after` (the edit's result waits for it).
// Reference: `tsc --noEmit` of the same project, one full check.

const FILES = 200;
const EDITS = 20;

function tsc(root: string): Promise<number> {
  const bin = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  const started = performance.now();
  return new Promise((resolve) => execFile(process.execPath, [bin, '--noEmit', '-p', root], () => resolve(performance.now() - started)));
}

export default async function (): Promise<void> {
  const root = typescriptProject(FILES);
  const supervisor = new Supervisor();
  const diagnostics = new Diagnostics({ supervisor, waitMs: 60_000, env: { PATH: '' } });
  try {
    const file = join(root, 'src', `file${FILES / 2}.ts`);
    const clean = fileText(FILES / 2);
    const broken = breakFile(clean);
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
