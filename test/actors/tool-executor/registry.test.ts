import test from 'ava';
import { AGENT_MODES } from '../../../actors/agent-mode.js';
import { defineTool } from '../../../actors/tool-executor/tools/define-tool.js';
import { BUILTIN_TOOLS, builtinTools, sessionTools, ToolRegistry } from '../../../actors/tool-executor/registry.js';
import { ToolError } from '../../../actors/tool-executor/tools/tool-error.js';
import { ReikaError } from '../../../runtime/errors.js';
import { tempDir } from '../../helpers/temp.js';
import { call } from './harness.js';

const CONTRACT: Record<string, string[]> = {
  read: ['path', 'offset', 'limit'],
  list: ['path', 'depth'],
  glob: ['pattern', 'path'],
  grep: ['pattern', 'path', 'glob', 'ignore_case'],
  edit: ['path', 'old_string', 'new_string', 'edits'],
  write: ['path', 'content'],
  bash: ['command', 'timeout_ms'],
  subagent: ['task', 'files'],
  todo: ['todos'],
  fetch: ['url'],
  search: ['query'],
};

type Parameters = { properties: Record<string, { type: string; minimum?: number; maximum?: number }>; required: string[] };
const names = (mode: 'agent' | 'plan' | 'subagent') => builtinTools.toolsArray(mode).map((schema) => schema.function.name);

test('agent mode offers the built-in tools in a stable order with the SPEC argument keys', (t) => {
  const schemas = builtinTools.toolsArray('agent');
  t.deepEqual(schemas.map((s) => s.function.name), ['read', 'list', 'glob', 'grep', 'edit', 'write', 'bash', 'todo', 'fetch', 'subagent']);
  for (const schema of schemas) {
    const parameters = schema.function.parameters as Parameters;
    t.deepEqual(Object.keys(parameters.properties), CONTRACT[schema.function.name]);
    t.true(schema.function.description.length > 40 && schema.function.description.length < 400);
  }
});

test('the tools array is byte-identical on every call, even after a caller mutates one, and in a fresh registry', (t) => {
  const first = builtinTools.toolsArray('agent');
  const bytes = JSON.stringify(first);
  first[0]!.function.description = 'changed';
  (first[1]!.function.parameters as Parameters).required.push('nonsense');
  first.pop();
  t.is(JSON.stringify(builtinTools.toolsArray('agent')), bytes);
  t.is(JSON.stringify(new ToolRegistry().toolsArray('agent')), bytes, 'another session gets the same bytes');
});

test('plan mode is read-only with a limited bash; subagents get neither bash nor subagent', (t) => {
  t.deepEqual(names('plan'), ['read', 'list', 'glob', 'grep', 'bash', 'fetch', 'subagent']);
  t.regex(builtinTools.toolsArray('plan')[4]!.function.description, /read-only/);
  t.notRegex(builtinTools.toolsArray('agent')[6]!.function.description, /read-only/);
  t.deepEqual(names('subagent'), ['read', 'list', 'glob', 'grep']);
  const shared = (mode: 'agent' | 'plan' | 'subagent') => JSON.stringify(builtinTools.toolsArray(mode).slice(0, 4));
  t.is(shared('plan'), shared('subagent'), 'the shared tools are the same bytes in every mode');
  t.is(shared('agent'), shared('subagent'));
});

test('every required key of a built-in schema is refused when missing, and every maximum it shows is the one the check holds', (t) => {
  const valid: Record<string, Record<string, unknown>> = {
    read: { path: 'a' },
    list: {},
    glob: { pattern: '*' },
    grep: { pattern: 'x' },
    edit: { path: 'a', old_string: 'x', new_string: 'y' },
    write: { path: 'a', content: '' },
    bash: { command: 'ls' },
    subagent: { task: 't' },
    todo: { todos: [] },
    fetch: { url: 'https://example.com' },
    search: { query: 'q' },
  };
  for (const tool of [...BUILTIN_TOOLS, ...sessionTools({ searchUrl: 'set' }).filter((extra) => !BUILTIN_TOOLS.includes(extra))]) {
    const parameters = tool.parameters as Parameters;
    t.notThrows(() => tool.validate(valid[tool.name]), tool.name);
    for (const key of parameters.required) {
      const args = { ...valid[tool.name] };
      delete args[key];
      const error = t.throws(() => tool.validate(args), undefined, `${tool.name} without ${key}`);
      t.true(ToolError.isInstance(error) && error.code === 'INVALID_ARGS' && error.message.includes(`"${key}"`), `${tool.name}: ${error?.message}`);
    }
    for (const [key, schema] of Object.entries(parameters.properties)) {
      if (schema.type !== 'integer') continue;
      t.throws(() => tool.validate({ ...valid[tool.name], [key]: schema.minimum! - 1 }), undefined, `${tool.name}.${key} below its minimum`);
      if (schema.maximum === undefined) continue;
      t.notThrows(() => tool.validate({ ...valid[tool.name], [key]: schema.maximum }), `${tool.name}.${key} at its maximum`);
      t.throws(() => tool.validate({ ...valid[tool.name], [key]: schema.maximum! + 1 }), undefined, `${tool.name}.${key} above its maximum`);
    }
  }
});

/** An MCP-like tool: its schema comes from elsewhere and another actor runs it. */
const foreign = (name: string) =>
  defineTool({
    name,
    description: `The ${name} tool of a test server.`,
    parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    modes: { agent: {} },
    approval: 'ask',
    runs: { actor: 'mcp/test' },
  });

test('a tool from elsewhere registers through the same door: after the built-ins, sorted by name, its schema as given', (t) => {
  const registry = new ToolRegistry();
  registry.register(foreign('mcp__zeta__find'));
  registry.register(foreign('mcp__alpha__search'));
  const schemas = registry.toolsArray('agent');
  t.deepEqual(schemas.map((s) => s.function.name), [...names('agent'), 'mcp__alpha__search', 'mcp__zeta__find']);
  t.deepEqual(schemas.at(-1)!.function.parameters, { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] });
  t.deepEqual(registry.toolsArray('plan').map((s) => s.function.name), names('plan'), 'a mode it does not name does not offer it');
  t.deepEqual(registry.get('mcp__zeta__find')!.runs, { actor: 'mcp/test' });
  t.deepEqual(registry.get('mcp__zeta__find')!.validate({ q: 'x', extra: 1 }), { q: 'x', extra: 1 }, 'the server checks its own arguments');
});

test('once a tools array was taken, the session refuses new tools; bad and duplicate names are refused', (t) => {
  const registry = new ToolRegistry();
  const bytes = JSON.stringify(registry.toolsArray('agent'));
  const late = t.throws(() => registry.register(foreign('mcp__late__tool')));
  t.true(ReikaError.isInstance(late) && late.code === 'REIKA_ERR_TOOLS_FIXED');
  t.is(JSON.stringify(registry.toolsArray('agent')), bytes);
  t.throws(() => builtinTools.register(foreign('mcp__shared__tool')), { message: /fixed/ }, 'the shared built-ins never change');
  const fresh = new ToolRegistry();
  t.throws(() => fresh.register(foreign('read')), { message: /already registered/ });
  t.throws(() => fresh.register(foreign('mcp__bad name__x')), { message: /not a valid tool name/ });
  t.throws(() => fresh.register(foreign(`mcp__${'x'.repeat(60)}`)), { message: /at most 64/ });
});

test('a definition cannot be changed in place by anyone who holds it', (t) => {
  const read = builtinTools.get('read')!;
  t.throws(() => {
    (read as { description: string }).description = 'changed';
  });
  t.throws(() => {
    (read.parameters as Parameters).required.push('x');
  });
  t.is(JSON.stringify(builtinTools.toolsArray('agent')[0]), JSON.stringify(new ToolRegistry().toolsArray('agent')[0]));
});

test('the executor runs only what the call mode offers, and only the tools it runs', async (t) => {
  const root = tempDir();
  for (const mode of AGENT_MODES) {
    const offered = new Set(names(mode));
    for (const tool of BUILTIN_TOOLS) {
      if (tool.runs !== 'executor' || offered.has(tool.name)) continue;
      const result = await call(root, tool.name, {}, { mode });
      t.is(result.errorCode, 'READ_ONLY_MODE', `${tool.name} in ${mode} mode`);
    }
  }
  t.is((await call(root, 'subagent', { task: 'x' })).summary, 'subagent is not a tool the tool executor runs', 'the agent loop runs it');
  t.is((await call(root, 'subagent', { task: 'x' }, { mode: 'subagent' })).summary, 'there is no tool named "subagent"; the tools are read, list, glob, grep');
  const unknown = await call(root, 'rm', {}, { mode: 'subagent' });
  t.is(unknown.summary, 'there is no tool named "rm"; the tools are read, list, glob, grep');
});
