import test from 'ava';
import { spreadBriefs, subagentBrief, type BriefInput } from '../../../actors/subagent/brief.js';
import { subagentTool } from '../../../actors/tool-executor/tools/subagent.js';
import { builtinTools } from '../../../actors/tool-executor/registry.js';
import { coverage, namedFiles, notCoveredSection } from '../../../actors/subagent/coverage.js';
import { splitReport } from '../../../actors/subagent/report.js';
import { tempDir, writeTree } from '../../helpers/temp.js';
import { toolSettings } from '../../helpers/tool-settings.js';

const session = { baseUrl: 'http://main:8080/v1', model: 'main-model', apiKey: 'main-key', requestTimeoutMs: 5_000 };

function input(subagent: Omit<BriefInput['config']['subagent'], 'profiles'> & { profiles?: string[] }, profiles?: BriefInput['config']['profiles']): BriefInput {
  return { config: { subagent: { profiles: [], ...subagent }, maxTokens: 2_048, profiles }, endpoint: session, window: 32_000, root: '/p', system: 'S', tools: [], approvals: 'safe', toolSettings: toolSettings('/p') };
}

test('without REIKA_SUBAGENT_* settings a subagent uses the session endpoint and window', (t) => {
  const brief = subagentBrief(input({ maxTurns: 8 }));
  t.deepEqual(brief.endpoint, session);
  t.is(brief.window, 32_000);
  t.false(brief.discover);
  t.is(brief.maxTurns, 8);
  t.is(brief.maxTokens, 2_048);
});

test('a subagent server of its own gets its own key or the session key, and its model and window are discovered', (t) => {
  const own = subagentBrief(input({ maxTurns: 0, baseUrl: 'http://second:9000/v1', apiKey: 'second-key' }));
  t.deepEqual(own.endpoint, { baseUrl: 'http://second:9000/v1', model: '', apiKey: 'second-key', keyVariable: 'REIKA_SUBAGENT_API_KEY', urlVariable: 'REIKA_SUBAGENT_BASE_URL', modelVariable: 'REIKA_SUBAGENT_MODEL', requestTimeoutMs: 5_000 });
  t.true(own.discover);
  t.is(own.window, undefined, 'another server\'s window is asked, not assumed');
  t.is(own.maxTurns, 1, 'a budget of 0 still allows the report');
  const fallback = subagentBrief(input({ maxTurns: 8, baseUrl: 'http://second:9000/v1', model: 'small' }));
  t.deepEqual(fallback.endpoint, { baseUrl: 'http://second:9000/v1', model: 'small', apiKey: 'main-key', urlVariable: 'REIKA_SUBAGENT_BASE_URL', modelVariable: 'REIKA_SUBAGENT_MODEL', requestTimeoutMs: 5_000 });
  const sameServer = subagentBrief(input({ maxTurns: 8, model: 'small' }));
  t.is(sameServer.endpoint.baseUrl, session.baseUrl);
  const onProfile = subagentBrief({ ...input({ maxTurns: 8 }), endpoint: { ...session, keyVariable: 'REIKA_CLOUD_API_KEY', urlVariable: 'REIKA_CLOUD_BASE_URL', modelVariable: 'REIKA_CLOUD_MODEL' } });
  t.like(onProfile.endpoint, { keyVariable: 'REIKA_CLOUD_API_KEY', urlVariable: 'REIKA_CLOUD_BASE_URL', modelVariable: 'REIKA_CLOUD_MODEL' }, "the session's settings are named as the session names them");
  t.true(sameServer.discover, 'another model on the same server may have another window');
});

test('REIKA_SUBAGENT_PROFILES gives one brief per profile; what a profile does not configure is discovered', (t) => {
  t.deepEqual(spreadBriefs(input({ maxTurns: 8 })), [], 'no spread without the setting');
  const profiles = [
    { name: 'default', baseUrl: session.baseUrl, model: 'main-model', apiKey: 'main-key' },
    { name: 'gpu2', baseUrl: 'http://gpu2:8000/v1', model: 'coder', apiKey: 'k2', contextWindow: 65_536 },
    { name: 'gpu3', baseUrl: 'http://gpu3:8000/v1' },
  ];
  const [main, gpu2, gpu3] = spreadBriefs(input({ maxTurns: 8, profiles: ['default', 'gpu2', 'gpu3'] }, profiles));
  t.like(main, { endpoint: session, window: 32_000, discover: false });
  t.like(gpu2, { endpoint: { baseUrl: 'http://gpu2:8000/v1', model: 'coder', apiKey: 'k2', keyVariable: 'REIKA_GPU2_API_KEY', urlVariable: 'REIKA_GPU2_BASE_URL', modelVariable: 'REIKA_GPU2_MODEL', requestTimeoutMs: 5_000 }, window: 65_536, discover: false });
  t.like(gpu3, { endpoint: { baseUrl: 'http://gpu3:8000/v1', model: '' }, discover: true });
  t.is(gpu3!.window, undefined);
  t.is(gpu3!.system, 'S');
});

test('the subagent tool is in the tools array of agent and plan mode, after the executor tools, naming task and files', (t) => {
  for (const mode of ['agent', 'plan'] as const) {
    const schema = builtinTools.toolsArray(mode).at(-1)!;
    t.is(schema.function.name, 'subagent');
    t.deepEqual(Object.keys((schema.function.parameters as { properties: object }).properties), ['task', 'files']);
    t.deepEqual((schema.function.parameters as { required: string[] }).required, ['task']);
  }
  t.false(builtinTools.toolsArray('subagent').some((schema) => schema.function.name === 'subagent'), 'subagents cannot spawn subagents');
});

/** The checked arguments, or the one sentence the model is told. */
function parse(raw: Record<string, unknown>): unknown {
  try {
    return subagentTool.validate(raw);
  } catch (error) {
    return (error as Error).message;
  }
}

test('subagent arguments are checked with one sentence per problem', (t) => {
  t.deepEqual(parse({ task: '  look  ', files: ['a.ts', ' a.ts', 'b.ts', ''] }), { task: 'look', files: ['a.ts', 'b.ts'] });
  t.deepEqual(parse({ task: 'x' }), { task: 'x', files: [] });
  t.is(parse({ task: '' }), 'subagent needs a non-empty string "task" saying what to find out');
  t.is(parse({ task: 'x', files: [1] }), 'subagent "files" must be an array of path strings');
  t.is(parse({ task: 'x', path: 'a' }), 'subagent takes only "task" and "files", not "path"');
  t.regex(String(parse({ task: 'x', files: Array.from({ length: 101 }, (_, i) => `f${i}`) })), /names 101 files; at most 100 per subagent/);
});

test('named files are the `files` entries plus words of the task that are files of the project', (t) => {
  const root = writeTree(tempDir(), { 'src/a.ts': '', 'src/util/b.ts': '', 'README.md': '', 'v1.2/notes.txt': '' });
  const task = 'Compare src/a.ts and `src/util/b.ts` (see README.md, e.g. section 2, v1.2, and src/nope.ts).';
  t.deepEqual(namedFiles(root, task, ['docs/x.md']), ['docs/x.md', 'src/a.ts', 'src/util/b.ts', 'README.md']);
  t.deepEqual(namedFiles(root, 'Read ../outside.ts and src/a.ts.', []), ['src/a.ts']);
});

test('coverage counts successful reads by resolved path, folders by any file read inside them', (t) => {
  const root = writeTree(tempDir(), { 'src/a.ts': '', 'src/b.ts': '', 'lib/c.ts': '' });
  const calls = [
    { id: '1', name: 'read', arguments: { path: `${root}/src/a.ts` }, status: 'done' as const, summary: '' },
    { id: '2', name: 'read', arguments: { path: 'src/b.ts' }, status: 'error' as const, summary: '' },
    { id: '3', name: 'grep', arguments: { pattern: 'x', path: 'lib/c.ts' }, status: 'done' as const, summary: '' },
  ];
  const cover = coverage(root, ['src/a.ts', 'src/b.ts', 'lib/c.ts', 'src', 'lib'], calls);
  t.deepEqual(cover.read, ['src/a.ts']);
  t.deepEqual(cover.notCovered, ['src/b.ts', 'lib/c.ts', 'lib (a folder: none of its files was read)']);
  t.is(notCoveredSection({ named: ['a'], notCovered: [] }), 'Not covered: none (the named file was read).');
});

test('a report is split at a line end before 2,400 characters, or at 2,400 when no line end is near', (t) => {
  t.deepEqual(splitReport('short'), { head: 'short', tail: '' });
  const lines = `${'a'.repeat(2_000)}\n${'b'.repeat(1_000)}`;
  t.deepEqual(splitReport(lines), { head: 'a'.repeat(2_000), tail: 'b'.repeat(1_000) });
  const flat = 'c'.repeat(5_000);
  const { head, tail } = splitReport(flat);
  t.is(head.length, 2_400);
  t.is(head + tail, flat);
});
