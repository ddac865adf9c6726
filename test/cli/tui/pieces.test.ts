import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSlashCommand } from '../../../cli/slash/commands.js';
import { closest, editDistance } from '../../../cli/slash/suggest.js';
import { mentions } from '../../../actors/prompt/mentions.js';
import { attachFiles } from '../../../cli/tui/attachments.js';
import { completePath } from '../../../cli/tui/completion.js';
import { statusLine, formatTokens } from '../../../cli/tui/status-line.js';
import { createStyle } from '../../../cli/tui/style.js';
import { textWidth, truncate } from '../../../cli/tui/text-width.js';
import { toolTarget } from '../../../cli/tui/tool-line.js';
import { tempDir, writeTree } from '../../helpers/temp.js';

test('an unknown command suggests the closest one, and nothing for gibberish', (t) => {
  t.is(editDistance('kitten', 'sitting'), 3);
  t.is(editDistance('mpa', 'map'), 1, 'a swap of neighbours is one edit');
  const names = ['help', 'cd', 'approvals', 'model', 'mode', 'compact', 'tokens', 'new', 'exit'];
  t.is(closest('tokns', names), 'tokens');
  t.is(closest('aprovals', names), 'approvals');
  t.is(closest('mod', names), 'mode');
  t.is(closest('mdoe', names), 'mode');
  t.is(closest('ext', names), 'exit');
  t.is(closest('zzzzzzzz', names), undefined);
  t.is(closest('init', names), undefined, 'init is not a slip for exit (half of it differs)');
  t.is(closest('statu', ['status', 'stats']), 'status');
});

test('only a leading /word is a command; a path is a message', (t) => {
  t.true(isSlashCommand('/help'));
  t.true(isSlashCommand('  /cd ../x'));
  t.false(isSlashCommand('/usr/bin/env is broken'));
  t.false(isSlashCommand('look at /help'));
});

test('@path completion goes one segment at a time and falls back to substrings', (t) => {
  const paths = ['src/app.ts', 'src/alpha/a.ts', 'src/alpha/b.ts', 'README.md'];
  t.deepEqual(completePath('@s', paths), { replacement: '@src/', candidates: [] });
  t.deepEqual(completePath('@src/a', paths).candidates, ['src/alpha/', 'src/app.ts']);
  t.is(completePath('@src/alpha/a', paths).replacement, '@src/alpha/a.ts ');
  t.is(completePath('@readme', paths).replacement, '@README.md ');
  t.deepEqual(completePath('@nothing', paths), { candidates: [] });
});

test('@path completion quotes a path with spaces and keeps the quote the user opened', (t) => {
  const paths = ['my notes/résumé.md', 'my notes/plan.md', 'src/a.ts', 'say "hi".txt'];
  t.deepEqual(completePath('@my', paths), { replacement: '@"my notes/', candidates: [] });
  t.deepEqual(completePath('@"my notes/', paths).candidates, ['my notes/plan.md', 'my notes/résumé.md']);
  t.is(completePath('@"my notes/r', paths).replacement, '@"my notes/résumé.md" ');
  t.is(completePath("@'my notes/r", paths).replacement, "@'my notes/résumé.md' ");
  t.is(completePath('@my\\ notes/p', paths).replacement, '@"my notes/plan.md" ');
  t.is(completePath('@say', paths).replacement, `@'say "hi".txt' `);
  // Typed composed, stored decomposed: still found, and inserted as typed.
  t.is(completePath('@"my notes/ré', ['my notes/re\u0301sume\u0301.md']).replacement, '@"my notes/r\u00e9sum\u00e9.md" ');
});

test('quoted and escaped mentions attach their file; a missing one is said in one line, however it is written', async (t) => {
  const root = writeTree(tempDir(), { 'my notes/résumé.md': 'hired\n', 'my notes/plan.md': 'step one\n' });
  const result = await attachFiles('read @"my notes/résumé.md" and @my\\ notes/plan.md, then @"my notes/gone.md" and @\'nope\' and @"half', root);
  t.deepEqual(result.attached, ['my notes/résumé.md', 'my notes/plan.md']);
  t.regex(result.message, /<file path="my notes\/résumé\.md">\nhired\n<\/file>/);
  t.deepEqual(result.problems, ['@"my notes/gone.md": no such file', "@'nope': no such file", '@"half: the quote is not closed; nothing attached']);
  t.deepEqual((await attachFiles('ask @someone', root)).problems, [], 'a bare word that is no path is no mention of a file');
});

test('@path attaches text files, leaves images to the session and reports what is missing', async (t) => {
  const root = writeTree(tempDir(), { 'src/a.ts': 'export const a = 1;\n', 'pic.png': '\x89PNG\r\n\x1a\n\0\0', 'bin.dat': 'a\0b' });
  t.deepEqual(mentions('see @src/a.ts, @pic.png and me@example.com'), ['src/a.ts', 'pic.png']);
  const result = await attachFiles('see @src/a.ts and @pic.png and @bin.dat and @gone.ts', root);
  t.deepEqual(result.attached, ['src/a.ts']);
  t.regex(result.message, /<file path="src\/a\.ts">\nexport const a = 1;\n<\/file>/);
  t.false(result.message.includes('PNG'));
  t.deepEqual(result.problems, ['@bin.dat is a binary file; not attached', '@gone.ts: no such file']);
  writeFileSync(join(root, 'big.txt'), 'x'.repeat(150_000));
  const big = await attachFiles('@big.txt', root);
  t.regex(big.message, /\[cut: the file has 150000 bytes/);
});

test('the status line shows model, mode, approvals, context share and cache hit rate within the width', (t) => {
  const style = createStyle(false);
  const line = statusLine(
    { model: 'qwen3-coder-30b', profile: 'default', mode: 'agent', approvals: 'safe', contextTokens: 12_300, contextWindow: 32_768, promptTokens: 1000, cachedTokens: 910 },
    80,
    style,
  );
  t.is(line, 'qwen3-coder-30b · agent · approvals safe · ctx 12k/33k (38%) · cache 91%');
  const narrow = statusLine({ model: 'm'.repeat(60), mode: 'plan', approvals: 'off', contextTokens: 0, promptTokens: 0, cachedTokens: 0 }, 40, style);
  t.true(textWidth(narrow) <= 39);
  t.is(formatTokens(1234), '1.2k');
  // The last request's real prefill when it fits; a re-prefill (`!`) always.
  const facts = { model: 'qwen3', mode: 'agent', approvals: 'safe', contextTokens: 12_300, contextWindow: 32_768, promptTokens: 1000, cachedTokens: 910 };
  t.is(statusLine({ ...facts, lastRequest: { prefilledTokens: 120 } }, 100, style), 'qwen3 · agent · approvals safe · ctx 12k/33k (38%) · cache 91% · prefill 120');
  t.is(statusLine({ ...facts, lastRequest: { prefilledTokens: 120 } }, 70, style), 'qwen3 · agent · approvals safe · ctx 12k/33k (38%) · cache 91%');
  t.regex(statusLine({ ...facts, lastRequest: { prefilledTokens: 12_000, reprefill: { cause: 'engine' } } }, 100, style), / · prefill 12k!$/);
});

test('widths count wide characters twice and ANSI codes not at all', (t) => {
  t.is(textWidth('\x1b[1mab\x1b[22m'), 2);
  t.is(textWidth('日本'), 4);
  t.is(truncate('abcdef', 4), 'abc…');
});

test('a tool call line names its target', (t) => {
  t.is(toolTarget('bash', { command: 'npm test\nnpm run lint' }), 'npm test …');
  t.is(toolTarget('read', { path: 'a.ts', offset: 300 }), 'a.ts:300');
  t.is(toolTarget('grep', { pattern: 'TODO', path: 'src' }), '/TODO/ in src');
  t.is(toolTarget('list', {}), '.');
});
