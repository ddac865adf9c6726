import test from 'ava';
import { startScriptedServer } from '../../helpers/scripted-server.js';
import { gitRepo } from '../../helpers/temp.js';
import { runReika } from '../headless-helpers.js';

/**
 * Diagnostics after an edit, end to end (issue 37): reika -p edits a TypeScript file through the
 * scripted model, the project's language server (typescript-language-server with typescript, from
 * reika's own install) checks it, and the tool result the model gets names the error the edit
 * introduced and not the one already there. The budget is long: a cold server on a loaded
 * machine takes seconds, and no timing is asserted.
 */

const MAIN = 'import { add } from "./math.js";\nexport const x: number = add(1, 2);\nexport const old: string = 5;\n';
const tree = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'nodenext', noEmit: true }, include: ['src'] }),
  'src/math.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  'src/main.ts': MAIN,
};
const script = [{ toolCalls: [{ name: 'edit', arguments: { path: 'src/main.ts', old_string: 'add(1, 2)', new_string: 'add("1", 2)' } }] }, { content: 'edited' }];

function toolMessage(json: unknown): string {
  return (json as { messages: { role: string; content: string }[] }).messages.find((message) => message.role === 'tool')!.content;
}

test.serial('an edit that breaks the types is told so in its result; the error that was there is not', async (t) => {
  const model = await startScriptedServer(script, { models: ['scripted-model'] });
  t.teardown(() => model.close());
  const run = await runReika(['-p', 'change the call', '--json'], { cwd: gitRepo(tree), env: { REIKA_BASE_URL: model.url, REIKA_MODEL: 'scripted-model', REIKA_DIAGNOSTICS: 'on', REIKA_DIAGNOSTICS_MS: '120000' } });
  t.is(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  t.regex(result.toolCalls[0].summary, /; it introduced an error: src\/main\.ts:2:30 TS2345 Argument of type 'string' is not assignable to parameter of type 'number'\.$/);
  const told = toolMessage(model.chatRequests()[1]!.json);
  t.regex(told, /Errors this change introduced \(typescript-language-server\):\nsrc\/main\.ts:2:30 TS2345 /);
  t.notRegex(told, /TS2322/, 'the error already in the file is not reported');
});

test.serial('with REIKA_DIAGNOSTICS=off no server is started and the result is the edit alone', async (t) => {
  const model = await startScriptedServer(script, { models: ['scripted-model'] });
  t.teardown(() => model.close());
  const run = await runReika(['-p', 'change the call', '--json'], { cwd: gitRepo(tree), env: { REIKA_BASE_URL: model.url, REIKA_MODEL: 'scripted-model', REIKA_DIAGNOSTICS: 'off' } });
  t.is(run.code, 0, run.stderr);
  t.is(JSON.parse(run.stdout).toolCalls[0].summary, 'edited src/main.ts: replaced 1 line with 1 at line 2');
  t.notRegex(toolMessage(model.chatRequests()[1]!.json), /Errors this change introduced/);
});
