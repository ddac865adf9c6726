import test from 'ava';
import { getHeapStatistics } from 'node:v8';
import { decodeEchoEscapes, decodePrintfEscapes } from '../../../../actors/tool-executor/shell/ansi-c.js';
import { parseCommand } from '../../../../actors/tool-executor/shell/parse.js';
import { unwrapCommandLine } from '../../../../actors/tool-executor/shell/unwrap.js';

const names = (source: string) => parseCommand(source, '/home/u').commands.map((c) => c.words.map((w) => w.text).join(' '));

test('substitutions inside ${…} defaults and arithmetic are parsed as commands', (t) => {
  t.deepEqual(names('echo ${x:-$(rm -rf a)}'), ['rm -rf a', 'echo ${x:-$(rm -rf a)}']);
  t.deepEqual(names('echo "${x:-"$(touch b)"}"'), ['touch b', 'echo ${x:-"$(touch b)"}']);
  t.deepEqual(names('echo $(( $(wc -l < f) + 1 ))'), ['wc -l', 'echo $(( $(wc -l < f) + 1 ))']);
  t.deepEqual(names('(( n = `date +%s` ))'), ['date +%s']);
  t.deepEqual(names('echo ${a:-${b:-`id`}}'), ['id', 'echo ${a:-${b:-`id`}}']);
  t.deepEqual(names('echo ${#x} ${x%%.*} ${HOME}/y'), ['echo ${#x} ${x%%.*} /home/u/y']);
});

test('every command knows the subshells it runs in', (t) => {
  const { commands } = parseCommand('cd a; (pwd; x) ; y $(z) `w`; { v; }');
  const scopes = Object.fromEntries(commands.map((c) => [c.words[0]!.text, c.scopes]));
  t.deepEqual(scopes.cd, []);
  t.is(scopes.x!.length, 1);
  t.deepEqual(scopes.y, []);
  t.is(scopes.z!.length, 1);
  t.is(scopes.w!.length, 1);
  t.notDeepEqual(scopes.z, scopes.x);
  t.notDeepEqual(scopes.w, scopes.z);
  t.deepEqual(scopes.v, [], 'braces are not a subshell');
});

test('a prompt-expansion parameter is reported as a hazard', (t) => {
  t.deepEqual(parseCommand('echo ${x@P}').hazards, ['${x@P} expands its value as a prompt, running any substitutions in it']);
  t.deepEqual(parseCommand('echo ${x@Q} ${x@U}').hazards, []);
});

test('process substitution is a redirect the unwrapper can see', (t) => {
  const { commands } = parseCommand('source <(gen)');
  t.deepEqual(commands.map((c) => c.redirects.map((r) => r.op)), [[], ['<(']]);
});

test('echo -e and printf escapes decode as the shell prints them', (t) => {
  t.is(decodeEchoEscapes('\\x72\\x6d \\u002d\\0162f\\c ignored'), 'rm -rf');
  t.is(decodePrintfEscapes(['\\162m %s\\n', '-rf x']), 'rm -rf x\n');
  t.is(decodePrintfEscapes(['%s;', 'a', 'b']), 'a;b;');
  t.is(decodePrintfEscapes(['%b', 'r\\x6d']), 'rm');
});

test('the unwrapper marks elevation, runs per item and scripts it cannot know', (t) => {
  const { commands } = unwrapCommandLine('sudo -u root rm x; find . -exec rm {} +; ls | xargs rm; base64 -d f | sh; python3 -c "print(1)"');
  const rm = commands.filter((c) => c.name === 'rm');
  t.deepEqual(rm.map((c) => [c.elevated, c.via]), [['sudo', undefined], [undefined, 'find'], [undefined, 'xargs']]);
  t.is(commands.find((c) => c.name === 'sh')?.unknownScript, 'base64 -d f');
  t.is(commands.find((c) => c.name === 'python3')?.code, 'print(1)');
});

test('a 2 MB word costs the heap about its own size, unquoted or in double quotes', (t) => {
  // Found by the issue 21 soak: a 2 MB `echo yyy…` command grew the tool executor's heap by
  // ~90 MB (one string piece per character), which the idle executor kept for the rest of the session.
  const big = 'y'.repeat(2 * 1024 * 1024);
  const cases: [string, string][] = [[`echo ${big} | wc -c`, big], [`echo "${big}" | wc -c`, big], [`echo a${big}'b'"c" | wc -c`, `a${big}bc`]];
  for (const [source, word] of cases) {
    const before = getHeapStatistics().used_heap_size;
    const parsed = parseCommand(source, '/home/u');
    const grown = getHeapStatistics().used_heap_size - before;
    t.true(parsed.commands[0]!.words[1]!.text === word);
    t.true(grown < 16 * 1024 * 1024, `the heap grew ${(grown / 1048576).toFixed(1)} MB parsing ${(source.length / 1048576).toFixed(1)} MB`);
  }
});
