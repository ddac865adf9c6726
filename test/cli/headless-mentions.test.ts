import test from 'ava';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { gitRepo } from '../helpers/temp.js';
import { runReika } from './headless-helpers.js';

/** `reika -p` attaches the files its prompt mentions, as the terminal does; piped text is not searched for mentions. */

const servers: ScriptedServer[] = [];
test.after.always(() => Promise.all(servers.map((s) => s.close())));

const userText = (s: ScriptedServer) => (s.chatRequests()[0]!.json.messages as { role: string; content: string }[]).find((m) => m.role === 'user')!.content;

test('reika -p attaches quoted, escaped and bare mentions, says which are missing on stderr, and ignores mentions in piped text', async (t) => {
  const repo = gitRepo({ 'my notes/re\u0301sume\u0301.md': 'hired in 2024\n', 'notes/plan.md': 'step one\n', 'src/a.ts': 'export const a = 1;\n' });
  const s = await startScriptedServer([{ content: 'read.' }]);
  servers.push(s);
  const prompt = 'compare @"my notes/r\u00e9sum\u00e9.md" with @notes/plan.md and @my\\ notes/gone.md';
  const run = await runReika(['-p', prompt], { cwd: repo, env: { REIKA_BASE_URL: s.url, REIKA_MODEL: 'scripted-model' }, stdin: 'piped text naming @src/a.ts\n' });
  t.is(run.code, 0, run.stderr);
  t.regex(run.stderr, /^reika: @my\\ notes\/gone\.md: no such file$/m);
  t.regex(run.stderr.normalize('NFC'), /^reika: attached my notes\/résumé\.md, notes\/plan\.md$/m);
  const sent = userText(s).normalize('NFC');
  t.true(sent.startsWith(`${prompt}\n\n<stdin>\npiped text naming @src/a.ts\n</stdin>\n\n<file path="my notes/résumé.md">\nhired in 2024\n</file>`), sent);
  t.regex(sent, /<file path="notes\/plan\.md">\nstep one\n<\/file>$/);
  t.false(sent.includes('export const a'));
});
