import test from 'ava';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { collectAgentsMd } from '../../../actors/indexer/agents-md.js';
import { summarizeProject } from '../../../actors/prompt/project-summary.js';
import { buildSystemPrompt, type PromptFacts } from '../../../actors/prompt/system-prompt.js';
import { gitRepo, tempDir, writeTree } from '../../helpers/temp.js';

const facts: PromptFacts = {
  cwd: '/work/app',
  summary: { name: 'app', languages: [{ name: 'TypeScript', files: 12 }], packageManager: 'npm', testCommand: 'npm test' },
  agentsMd: [{ path: 'AGENTS.md', content: 'Use tabs.' }],
  repoMap: 'src/a.ts: alpha, beta\n',
  indexedFiles: 40,
  capped: false,
  headless: true,
};

test('one builder makes every mode from the same facts, differing only in the mode lines', (t) => {
  const agent = buildSystemPrompt('agent', facts);
  const plan = buildSystemPrompt('plan', facts);
  const sub = buildSystemPrompt('subagent', facts);
  for (const prompt of [agent, plan, sub]) {
    t.true(prompt.includes('Working directory: /work/app'));
    t.true(prompt.includes('Test command: npm test'));
    t.true(prompt.includes('# Instructions from AGENTS.md\nUse tabs.'));
    t.true(prompt.includes('src/a.ts: alpha, beta'));
  }
  t.regex(plan, /read-only/);
  t.notRegex(agent, /plan mode/);
  t.regex(sub, /report/);
  t.regex(agent, /You run headless/);
  t.notRegex(sub, /You run headless/);
  t.is(buildSystemPrompt('agent', facts), agent, 'the same facts give the same bytes');
});

test('the project summary names the package manager, the test command and the languages', (t) => {
  const root = tempDir();
  writeTree(root, {
    'package.json': JSON.stringify({ name: 'demo', scripts: { test: 'ava' } }),
    'pnpm-lock.yaml': '',
  });
  const summary = summarizeProject(root, ['src/a.ts', 'src/b.ts', 'src/c.js', 'README.md', 'Makefile']);
  t.deepEqual(summary, { name: 'demo', languages: [{ name: 'TypeScript', files: 2 }, { name: 'JavaScript', files: 1 }], packageManager: 'pnpm', testCommand: 'pnpm test' });
  const rust = tempDir();
  writeTree(rust, { 'Cargo.toml': '[package]\nname = "crab"\n' });
  t.like(summarizeProject(rust, ['src/main.rs']), { name: 'crab', packageManager: 'cargo', testCommand: 'cargo test' });
  const plain = tempDir();
  writeTree(plain, { 'package.json': JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }) });
  t.is(summarizeProject(plain, []).testCommand, undefined);
});

test('AGENTS.md files are collected from the repo root down to the project folder', (t) => {
  const repo = gitRepo({ 'AGENTS.md': 'root rules', 'pkg/AGENTS.md': 'pkg rules', 'pkg/app/AGENTS.md': 'app rules', 'other/AGENTS.md': 'not mine' });
  mkdirSync(join(repo, 'pkg', 'app', 'deep'), { recursive: true });
  t.deepEqual(collectAgentsMd(join(repo, 'pkg', 'app')), [
    { path: 'AGENTS.md', content: 'root rules' },
    { path: 'pkg/AGENTS.md', content: 'pkg rules' },
    { path: 'pkg/app/AGENTS.md', content: 'app rules' },
  ]);
  t.deepEqual(collectAgentsMd(join(repo, 'pkg', 'app', 'deep')).length, 3);
  const loose = tempDir();
  writeTree(loose, { 'AGENTS.md': 'alone' });
  t.deepEqual(collectAgentsMd(loose), [{ path: 'AGENTS.md', content: 'alone' }]);
});

test('a folder without AGENTS.md gives its CLAUDE.md; the user’s own AGENTS.md comes first, for every project', (t) => {
  const repo = gitRepo({ 'CLAUDE.md': 'claude rules', 'pkg/AGENTS.md': 'pkg rules', 'pkg/CLAUDE.md': 'not read: AGENTS.md wins here' });
  const user = tempDir();
  writeTree(user, { 'AGENTS.md': 'always use tabs' });
  t.deepEqual(collectAgentsMd(join(repo, 'pkg'), user), [
    { path: join(user, 'AGENTS.md'), content: 'always use tabs' },
    { path: 'CLAUDE.md', content: 'claude rules' },
    { path: 'pkg/AGENTS.md', content: 'pkg rules' },
  ]);
  t.deepEqual(collectAgentsMd(join(repo, 'pkg'), tempDir()).length, 2, 'no user file, nothing added');
});
