import test from 'ava';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { Diagnostics } from '../../../actors/lsp/diagnostics.js';
import { Supervisor } from '../../../runtime/supervisor.js';
import { tempDir, writeTree } from '../../helpers/temp.js';
import { describeProcess, processesIn, processesLeftIn } from '../../cli/headless-helpers.js';

/**
 * Diagnostics after edits with real language servers from npm (reika's development dependencies
 * typescript-language-server, typescript and pyright) in temporary projects (issue 37). The wait
 * is long here because a cold server on a loaded machine takes seconds; no timing is asserted.
 */

const WAIT_MS = 120_000;

function diagnostics(t: { teardown(fn: () => unknown): void }, env: NodeJS.ProcessEnv = { PATH: '' }): Diagnostics & { supervisor: Supervisor } {
  const supervisor = new Supervisor();
  t.teardown(() => supervisor.close());
  return Object.assign(new Diagnostics({ supervisor, waitMs: WAIT_MS, env }), { supervisor });
}

/** What the edit tool would do: the file's new text on disk, between `before` and `after`. */
async function edit(d: Diagnostics, root: string, file: string, text: string, created = false): Promise<string | undefined> {
  const path = join(root, file);
  await d.before(root, path);
  writeFileSync(path, text);
  return d.after(root, path, created);
}

const TSCONFIG = JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'nodenext', noEmit: true }, include: ['src'] });
const MAIN = 'import { add } from "./math.js";\nexport const x: number = add(1, 2);\nexport const old: string = 5;\n';

test.serial('TypeScript: an edit that introduces a type error reports it, not the error that was there before, nor anything for a clean edit', async (t) => {
  const root = writeTree(tempDir(), { 'tsconfig.json': TSCONFIG, 'src/math.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n', 'src/main.ts': MAIN });
  const d = diagnostics(t);
  const broken = await edit(d, root, 'src/main.ts', MAIN.replace('add(1, 2)', 'add("1", 2)'));
  t.truthy(broken, 'an error is reported');
  const lines = broken!.split('\n');
  t.is(lines[0], 'Errors this change introduced (typescript-language-server):');
  t.is(lines.length, 2, broken);
  t.regex(lines[1]!, /^src\/main\.ts:2:30 TS2345 Argument of type 'string' is not assignable to parameter of type 'number'\.$/);
  t.notRegex(broken!, /TS2322/, 'the error already there is not reported');
  t.is(await edit(d, root, 'src/main.ts', `${MAIN.replace('add(1, 2)', 'add("1", 2)')}export const y = 1;\n`), undefined, 'an edit adding no error reports none');
  // A change of the imported file that breaks its importer is reported in the importer.
  const signature = await edit(d, root, 'src/math.ts', 'export function add(a: number, b: number, c: number): number {\n  return a + b + c;\n}\n');
  t.regex(signature ?? '', /^src\/main\.ts:2:\d+ TS2554 Expected 3 arguments, but got 2\.$/m, signature);
  t.deepEqual(d.status(root).slice(0, 1), ['typescript: typescript-language-server from reika (running)']);
  t.true(processesIn(root).length > 0, 'the server runs in the project');
  // One tsserver, the one that checks types: no syntax-only server beside it, no typings installer fetching from npm.
  const started = processesIn(root).map(describeProcess);
  t.is(started.filter((command) => /tsserver\.js/.test(command)).length, 1, started.join('\n'));
  t.false(started.some((command) => /typingsInstaller/.test(command)), started.join('\n'));
  // Its session (it runs detached) is a scheduling group of its own where Linux has autogroups:
  // the group is as nice as the actor, else the server's nice value would count for nothing.
  const server = processesIn(root).find((pid) => /typescript-language-server/.test(describeProcess(pid).split(' ').slice(1, 3).join(' ')));
  t.truthy(server, started.join('\n'));
  if (existsSync(`/proc/${server}/autogroup`)) t.regex(readFileSync(`/proc/${server}/autogroup`, 'utf8'), new RegExp(` nice ${Math.min(19, getPriority() + 10)}\\n$`));
  await d.supervisor.close();
  t.deepEqual((await processesLeftIn(root)).map(describeProcess), [], 'closing the session ends the server and all it started');
});

test.serial('Python: pyright reports what the edit broke and not what was broken before; a new file reports all its errors', async (t) => {
  const root = writeTree(tempDir(), { 'm.py': 'def add(a: int, b: int) -> int:\n    return a + b\n\ny: str = 3\n', 'user.py': 'from m import add\n\nz: int = add(1, 2)\n' });
  const d = diagnostics(t);
  const broken = await edit(d, root, 'm.py', 'def add(a: int, b: int) -> int:\n    return a + b\n\ny: str = 3\nx: int = add("1", 2)\n');
  t.regex(broken ?? '', /^Errors this change introduced \(pyright\):\nm\.py:5:14 reportArgumentType Argument of type "Literal\['1'\]" cannot be assigned to parameter "a" of type "int"/, broken);
  t.notRegex(broken ?? '', /reportAssignmentType/, 'y: str = 3 was there before');
  const created = await edit(d, root, 'new.py', 'n: int = "x"\n', true);
  t.regex(created ?? '', /^new\.py:1:10 reportAssignmentType /m, created);
  // A change that breaks the file importing it is reported there.
  const retyped = await edit(d, root, 'm.py', 'def add(a: str, b: int) -> int:\n    return b\n\ny: str = 3\nx: int = add("1", 2)\n');
  t.regex(retyped ?? '', /^user\.py:3:14 reportArgumentType /m, retyped);
});

test.serial('a missing or crashing server is one line in the status and nothing in an edit', async (t) => {
  const root = tempDir();
  mkdirSync(join(root, 'node_modules/.bin'), { recursive: true });
  // The project's own pyright-langserver, broken: it exits at once.
  writeFileSync(join(root, 'node_modules/.bin/pyright-langserver'), '#!/bin/sh\necho "broken install" >&2\nexit 3\n');
  chmodSync(join(root, 'node_modules/.bin/pyright-langserver'), 0o755);
  const d = diagnostics(t);
  t.is(await edit(d, root, 'a.py', 'x: int = "no"\n', true), undefined);
  const status = d.status(root);
  t.regex(status[1]!, /^python: pyright from project: pyright did not start: /);
  t.is(status[2], 'go: no language server found (gopls on PATH)');
  t.is(status[3], 'rust: no language server found (rust-analyzer on PATH)');
  t.is(await edit(d, root, 'notes.md', '# hi\n', true), undefined, 'a file no server reads');
});
