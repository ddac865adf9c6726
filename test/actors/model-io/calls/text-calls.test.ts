import test from 'ava';
import type { ToolSchema } from '../../../../actors/model-io/protocol.js';
import { TextCallParser, type TextItem } from '../../../../actors/model-io/calls/text-calls.js';
import { toolIndex } from '../../../../actors/model-io/calls/tool-index.js';

const tool = (name: string, properties: Record<string, unknown>): ToolSchema => ({ type: 'function', function: { name, description: name, parameters: { type: 'object', properties } } });
const tools = toolIndex([
  tool('read', { path: { type: 'string' }, offset: { type: 'integer' }, limit: { type: 'integer' } }),
  tool('grep', { pattern: { type: 'string' }, ignore_case: { type: 'boolean' }, glob: { type: 'string' } }),
  tool('write', { path: { type: 'string' }, content: { type: 'string' } }),
  tool('bash', { command: { type: 'string' }, timeout_ms: { type: ['integer', 'null'] } }),
  tool('edit', { path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } }),
  tool('subagent', { task: { type: 'string' }, files: { type: 'array' } }),
]);

type Item = { type: 'text'; text: string } | { type: 'call'; name: string; arguments: Record<string, unknown> } | { type: 'notice' };

/** Merges adjacent text items so results from different feedings compare equal; a malformed call is its text and a notice. */
function normalise(raw: Array<TextItem | Item>): Item[] {
  const items: Item[] = raw.flatMap((item): Item[] =>
    item.type === 'malformed' ? [{ type: 'text', text: item.text }, { type: 'notice' }] : item.type === 'call' ? [{ type: 'call', name: item.name, arguments: item.arguments }] : item.type === 'reasoning' ? [] : [item],
  );
  const out: Item[] = [];
  for (const item of items) {
    const last = out.at(-1);
    if (item.type === 'text' && last?.type === 'text') last.text += item.text;
    else out.push(item.type === 'text' ? { ...item } : item);
  }
  return out.filter((item) => item.type !== 'text' || item.text !== '');
}

function parseWhole(text: string): Item[] {
  const parser = new TextCallParser(tools);
  return normalise([...parser.push(text), ...parser.end()]);
}

function parseBytewise(text: string): Item[] {
  const parser = new TextCallParser(tools);
  const items: TextItem[] = [];
  for (const char of Array.from(text)) {
    const got = parser.push(char);
    // The user never sees a partial tag: no streamed text ends inside `<tool_call` or `<function=`.
    for (const item of got) if (item.type === 'text' && /<(t(o(o(l(_(c(a(l(l)?)?)?)?)?)?)?)?|f(u(n(c(t(i(o(n(=)?)?)?)?)?)?)?)?)?$/.test(item.text) && !/<$/.test(text)) {
      throw new Error(`a partial tag was shown: ${JSON.stringify(item.text)}`);
    }
    items.push(...got);
  }
  items.push(...parser.end());
  return normalise(items);
}

const call = (name: string, args: Record<string, unknown>): Item => ({ type: 'call', name, arguments: args });
const text = (t: string): Item => ({ type: 'text', text: t });
const NOTICE = Symbol('notice');
type Expected = Item | typeof NOTICE;

interface Case {
  title: string;
  input: string;
  expected: Expected[];
}

const cases: Case[] = [
  // <tool_call>{json}</tool_call>
  { title: 'a JSON call in tool_call tags', input: '<tool_call>\n{"name": "read", "arguments": {"path": "a.ts"}}\n</tool_call>', expected: [call('read', { path: 'a.ts' })] },
  {
    title: 'several JSON calls with prose around them',
    input: 'Let me look.\n<tool_call>{"name":"read","arguments":{"path":"a"}}</tool_call>\n<tool_call>{"name":"grep","arguments":{"pattern":"x"}}</tool_call>\nDone.',
    expected: [text('Let me look.\n'), call('read', { path: 'a' }), text('\n'), call('grep', { pattern: 'x' }), text('\nDone.')],
  },
  { title: 'arguments given as a JSON string', input: '<tool_call>{"name": "read", "arguments": "{\\"path\\": \\"b.ts\\", \\"limit\\": 5}"}</tool_call>', expected: [call('read', { path: 'b.ts', limit: 5 })] },
  { title: '"parameters" instead of "arguments"', input: '<tool_call>{"name": "grep", "parameters": {"pattern": "TODO", "ignore_case": true}}</tool_call>', expected: [call('grep', { pattern: 'TODO', ignore_case: true })] },
  {
    title: 'a closing tag inside a JSON string argument does not close the call',
    input: '<tool_call>{"name": "write", "arguments": {"path": "t.md", "content": "use </tool_call> and <tool_call> tags"}}</tool_call>after',
    expected: [call('write', { path: 't.md', content: 'use </tool_call> and <tool_call> tags' }), text('after')],
  },
  { title: 'a call whose closing tag never came, at the end of the message', input: 'ok <tool_call>{"name": "read", "arguments": {"path": "x"}}', expected: [text('ok '), call('read', { path: 'x' })] },
  { title: 'a JSON array of calls in one tag', input: '<tool_call>[{"name":"read","arguments":{"path":"a"}},{"name":"read","arguments":{"path":"b"}}]</tool_call>', expected: [call('read', { path: 'a' }), call('read', { path: 'b' })] },
  { title: 'multi-byte text around a call', input: 'héllo → 日本\n<tool_call>{"name":"read","arguments":{"path":"ü.ts"}}</tool_call>✓', expected: [text('héllo → 日本\n'), call('read', { path: 'ü.ts' }), text('✓')] },
  // XML style
  {
    title: 'the XML style inside tool_call tags, multi-line values typed from the schema',
    input: 'Reading.\n<tool_call>\n<function=read>\n<parameter=path>\nsrc/a b.ts\n</parameter>\n<parameter=offset>\n10\n</parameter>\n</function>\n</tool_call>',
    expected: [text('Reading.\n'), call('read', { path: 'src/a b.ts', offset: 10 })],
  },
  {
    title: 'the XML style without the wrapper, with a multi-line value holding markup',
    input: '<function=write>\n<parameter=path>\nx.html\n</parameter>\n<parameter=content>\n<div>\n  </parameter> is text here\n</div>\n</parameter>\n</function>',
    expected: [call('write', { path: 'x.html', content: '<div>\n  </parameter> is text here\n</div>' })],
  },
  {
    title: 'XML values typed as boolean, nullable integer and array',
    input: '<function=grep><parameter=pattern>a|b</parameter><parameter=ignore_case>true</parameter></function><function=bash><parameter=command>ls</parameter><parameter=timeout_ms>null</parameter></function><function=subagent><parameter=task>t</parameter><parameter=files>["a","b"]</parameter></function>',
    expected: [call('grep', { pattern: 'a|b', ignore_case: true }), call('bash', { command: 'ls', timeout_ms: null }), call('subagent', { task: 't', files: ['a', 'b'] })],
  },
  { title: 'a JSON body inside function tags', input: '<function=read>{"path": "j.ts"}</function>', expected: [call('read', { path: 'j.ts' })] },
  // Python style
  { title: 'a Python-style call on its own line', input: 'I will read it.\nread(path="a.ts", limit=20)\n', expected: [text('I will read it.\n'), call('read', { path: 'a.ts', limit: 20 }), text('\n')] },
  {
    title: 'a Python-style list of calls with all literal kinds',
    input: '[read(path=\'a\'), grep(pattern="x\\ny", ignore_case=True), subagent(task="t", files=["a", \'b\'])]',
    expected: [call('read', { path: 'a' }), call('grep', { pattern: 'x\ny', ignore_case: true }), call('subagent', { task: 't', files: ['a', 'b'] })],
  },
  {
    title: 'a Python-style call spread over lines with a triple-quoted string',
    input: 'write(\n    path="n.py",\n    content="""def f():\n    return "x"\n""",\n)',
    expected: [call('write', { path: 'n.py', content: 'def f():\n    return "x"\n' })],
  },
  // leaked or mixed
  { title: 'a call with no arguments at all', input: '<tool_call>{"name": "read"}</tool_call>', expected: [call('read', {})] },
  // negative cases
  { title: 'prose that merely mentions a tool', input: 'You can read(the file) or call read(path="x") inline, and grep too.', expected: [text('You can read(the file) or call read(path="x") inline, and grep too.')] },
  { title: 'a line that starts like a call but goes on as prose', input: 'read(path="a.ts") is how I would do it.\nreading more', expected: [text('read(path="a.ts") is how I would do it.\nreading more')] },
  { title: 'an unknown tool name in Python style stays text silently', input: 'print(value=1)\n', expected: [text('print(value=1)\n')] },
  { title: 'an unknown tool name in tags is text plus a notice', input: '<tool_call>{"name": "delete_all", "arguments": {}}</tool_call>', expected: [text('<tool_call>{"name": "delete_all", "arguments": {}}</tool_call>'), NOTICE] },
  { title: 'unbalanced JSON is text plus a notice', input: '<tool_call>{"name": "read", "arguments": {"path": "a"}</tool_call> then', expected: [text('<tool_call>{"name": "read", "arguments": {"path": "a"}</tool_call>'), NOTICE, text(' then')] },
  { title: 'JSON cut off at the end of the message is closed and used', input: '<tool_call>{"name": "read", "arguments": {"path": "a', expected: [call('read', { path: 'a' })] },
  { title: 'JSON that never closes and cannot be repaired is text plus a notice', input: '<tool_call>{"name": "read", "arguments": {"path": "a", 3', expected: [text('<tool_call>{"name": "read", "arguments": {"path": "a", 3'), NOTICE] },
  { title: 'invalid JSON inside balanced braces is text plus a notice', input: '<tool_call>{"name": read}</tool_call>', expected: [text('<tool_call>{"name": read}</tool_call>'), NOTICE] },
  { title: 'the tag named in prose is plain text', input: 'Models print <tool_call> tags and <function= headers.', expected: [text('Models print <tool_call> tags and <function= headers.')] },
  { title: 'an XML call to an unknown tool is text plus a notice', input: '<function=rm><parameter=path>/</parameter></function>', expected: [text('<function=rm><parameter=path>/</parameter></function>'), NOTICE] },
  { title: 'an unclosed XML call with nothing usable is text plus a notice', input: 'x <function=read>\n', expected: [text('x '), text('<function=read>\n'), NOTICE] },
  { title: 'ordinary HTML and comparisons pass through', input: 'if a < b && c <= d then <b>bold</b> <tool <function', expected: [text('if a < b && c <= d then <b>bold</b> <tool <function')] },
];

function matches(actual: Item[], expected: Expected[]): boolean {
  const want = normalise(expected.filter((e): e is Item => e !== NOTICE));
  const got = actual.filter((a) => a.type !== 'notice');
  const notices = actual.filter((a) => a.type === 'notice').length;
  return JSON.stringify(normalise(got)) === JSON.stringify(want) && notices === expected.filter((e) => e === NOTICE).length;
}

for (const c of cases) {
  test(`text fallback: ${c.title}, whole and one character at a time`, (t) => {
    const whole = parseWhole(c.input);
    t.true(matches(whole, c.expected), `whole: ${JSON.stringify(whole)}`);
    const bytewise = parseBytewise(c.input);
    t.deepEqual(bytewise, whole);
  });
}

test('text fallback: the concatenated text plus the call text always accounts for every character of prose', (t) => {
  // Property-style check over random mixes: nothing is lost or duplicated.
  const parts = ['plain words ', '<tool_call>{"name":"read","arguments":{"path":"p"}}</tool_call>', '\nread(path="q")\n', '< not a tag ', 'ünïcødé ', '<function=grep><parameter=pattern>z</parameter></function>'];
  let seed = 42;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let round = 0; round < 50; round++) {
    let input = '';
    const expectedCalls: string[] = [];
    for (let k = 0; k < 6; k++) {
      const part = parts[Math.floor(random() * parts.length)]!;
      input += part;
      if (part.includes('"p"')) expectedCalls.push('read:p');
      if (part.includes('"q"')) expectedCalls.push('read:q');
      if (part.includes('pattern>z')) expectedCalls.push('grep:z');
    }
    const whole = parseWhole(input);
    const calls = whole.flatMap((i) => (i.type === 'call' ? [`${i.name}:${Object.values(i.arguments)[0]}`] : []));
    t.deepEqual(calls, expectedCalls, input);
    t.deepEqual(parseBytewise(input), whole);
  }
});

test('text fallback: with no tools offered nothing is parsed', (t) => {
  const parser = new TextCallParser(toolIndex([]));
  const items = [...parser.push('<tool_call>{"name":"read","arguments":{}}</tool_call>'), ...parser.end()];
  t.deepEqual(normalise(items), [text('<tool_call>{"name":"read","arguments":{}}</tool_call>')]);
});

test('text fallback: a large call written in small pieces gives the same call as parsing it whole', (t) => {
  const content = Array.from({ length: 3000 }, (_, i) => `line ${i}: if (a) { b("</tool_call>"); } // <function=x>\n`).join('');
  const input = `Writing.\n<tool_call>${JSON.stringify({ name: 'write', arguments: { path: 'big.ts', content } })}</tool_call>\nDone.`;
  const whole = parseWhole(input);
  t.deepEqual(whole, [text('Writing.\n'), call('write', { path: 'big.ts', content }), text('\nDone.')]);
  const parser = new TextCallParser(tools);
  const items: TextItem[] = [];
  for (let i = 0; i < input.length; i += 7) items.push(...parser.push(input.slice(i, i + 7)));
  items.push(...parser.end());
  t.deepEqual(normalise(items), whole);
});

test('text fallback: random mixes of tags, JSON, brackets and prose never throw and split the same at any cut', (t) => {
  const alphabet = ['<tool_call>', '</tool_call>', '<function=read>', '<function=', '</function>', '<parameter=path>', '</parameter>', '{"name":"read","arguments":{"path":"a"}}', '{', '}', '[', ']', '"', '\\', 'read(', 'path="x"', ')', '\n', ' ', 'text', '<', '>', '<think>', 'é', 'grep(pattern=\'q\')', '"""', ','];
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let round = 0; round < 300; round++) {
    let input = '';
    const length = 1 + Math.floor(random() * 30);
    for (let k = 0; k < length; k++) input += alphabet[Math.floor(random() * alphabet.length)];
    const whole = parseWhole(input);
    const parser = new TextCallParser(tools);
    const items: TextItem[] = [];
    for (let i = 0; i < input.length; ) {
      const size = 1 + Math.floor(random() * 6);
      items.push(...parser.push(input.slice(i, i + size)));
      i += size;
    }
    items.push(...parser.end());
    t.deepEqual(normalise(items), whole, JSON.stringify(input));
    // Nothing is lost: the text items plus the calls' source account for all of the input's prose.
    const shown = whole.filter((i) => i.type === 'text').map((i) => (i as { text: string }).text).join('');
    t.true(shown.length <= input.length);
    if (!whole.some((i) => i.type === 'call')) t.is(shown, input, JSON.stringify(input));
  }
});
