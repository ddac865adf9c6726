import test from 'ava';
import { mcpToolName, toolParameters } from '../../../actors/mcp/tool-names.js';
import { NAME_PATTERN } from '../../../actors/tool-executor/registry.js';

test('a tool is named mcp__server__tool, other characters than letters, digits, _ and - made _', (t) => {
  t.is(mcpToolName('everything', 'get-sum'), 'mcp__everything__get-sum');
  t.is(mcpToolName('my.server', 'files/read.text'), 'mcp__my_server__files_read_text');
  t.is(mcpToolName('db', 'query ünïcode'), 'mcp__db__query__n_code');
});

test('a name past 64 characters keeps a prefix and ends in a hash of the original, the same in every session', (t) => {
  const long = 'a_tool_name_that_some_server_made_far_too_long_for_any_strict_server';
  const name = mcpToolName('github', long);
  t.is(name.length, 64);
  t.true(NAME_PATTERN.test(name));
  t.true(name.startsWith('mcp__github__a_tool_name_that'));
  t.is(mcpToolName('github', long), name, 'stable: the tools array must not change between sessions');
  t.not(mcpToolName('github', `${long}_2`), name);
});

test('two tools that read alike once made safe get different names', (t) => {
  const taken = new Set<string>();
  const first = mcpToolName('s', 'read.file', taken);
  taken.add(first);
  const second = mcpToolName('s', 'read/file', taken);
  t.is(first, 'mcp__s__read_file');
  t.not(second, first);
  t.true(NAME_PATTERN.test(second));
  t.regex(second, /^mcp__s__read_file_[0-9a-f]{6}$/);
});

test('every name fits the registry, whatever the server calls its tools', (t) => {
  for (const [server, tool] of [['x'.repeat(64), 'y'.repeat(64)], ['a', ''], ['a-b', '..'], ['s', '工具']]) t.true(NAME_PATTERN.test(mcpToolName(server!, tool!)), `${server} ${tool}`);
});

test('a schema becomes an object schema without $schema, its properties kept', (t) => {
  t.deepEqual(toolParameters(undefined), { type: 'object', properties: {} });
  t.deepEqual(toolParameters({}), { type: 'object', properties: {} });
  t.deepEqual(toolParameters([1]), { type: 'object', properties: {} });
  const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false };
  t.deepEqual(toolParameters(schema), { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false });
  t.is(schema.$schema, 'http://json-schema.org/draft-07/schema#', "the server's own object is not changed");
});
