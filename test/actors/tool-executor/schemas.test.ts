import test from 'ava';
import { toolSchemas } from '../../../actors/tool-executor/schemas.js';

const CONTRACT: Record<string, string[]> = {
  read: ['path', 'offset', 'limit'],
  list: ['path', 'depth'],
  glob: ['pattern', 'path'],
  grep: ['pattern', 'path', 'glob', 'ignore_case'],
  edit: ['path', 'old_string', 'new_string'],
  write: ['path', 'content'],
  bash: ['command', 'timeout_ms'],
};

test('agent mode offers the seven tools in a stable order with the SPEC argument keys', (t) => {
  const schemas = toolSchemas('agent');
  t.deepEqual(schemas.map((s) => s.function.name), ['read', 'list', 'glob', 'grep', 'edit', 'write', 'bash']);
  for (const schema of schemas) {
    const parameters = schema.function.parameters as { properties: Record<string, unknown>; required: string[] };
    t.deepEqual(Object.keys(parameters.properties), CONTRACT[schema.function.name]);
    t.true(schema.function.description.length > 40 && schema.function.description.length < 300);
  }
});

test('the tools array is byte-identical on every call, even after a caller mutates one', (t) => {
  const first = toolSchemas('agent');
  const bytes = JSON.stringify(first);
  first[0]!.function.description = 'changed';
  first.pop();
  t.is(JSON.stringify(toolSchemas('agent')), bytes);
});

test('plan mode is read-only with a limited bash; subagents get no bash at all', (t) => {
  const plan = toolSchemas('plan');
  t.deepEqual(plan.map((s) => s.function.name), ['read', 'list', 'glob', 'grep', 'bash']);
  t.regex(plan.at(-1)!.function.description, /read-only/);
  t.deepEqual(toolSchemas('subagent').map((s) => s.function.name), ['read', 'list', 'glob', 'grep']);
  t.is(JSON.stringify(toolSchemas('plan').slice(0, 4)), JSON.stringify(toolSchemas('subagent')), 'the shared tools are the same bytes in every mode');
});
