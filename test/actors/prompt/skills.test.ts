import test from 'ava';
import { join } from 'node:path';
import { collectSkills, MAX_DESCRIPTION_CHARS } from '../../../actors/prompt/skills.js';
import { buildSystemPrompt, type PromptFacts } from '../../../actors/prompt/system-prompt.js';
import { tempDir, writeTree } from '../../helpers/temp.js';

const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\nThe body, read only when needed.\n`;

test("the project's and the user's skills are found, sorted by name; a project skill replaces the user's of the same name", (t) => {
  const root = writeTree(tempDir(), {
    '.reika/skills/release/SKILL.md': skill('release', 'Cut a release: bump, tag, changelog'),
    '.reika/skills/shared/SKILL.md': skill('shared', 'the project version'),
  });
  const user = writeTree(tempDir(), {
    'skills/pdf/SKILL.md': skill('pdf', 'Read, merge and fill PDF files'),
    'skills/shared/SKILL.md': skill('shared', 'the user version'),
  });
  const { skills, problems } = collectSkills(root, user);
  t.deepEqual(problems, []);
  t.deepEqual(skills, [
    { name: 'pdf', description: 'Read, merge and fill PDF files', path: join(user, 'skills', 'pdf', 'SKILL.md'), source: 'user' },
    { name: 'release', description: 'Cut a release: bump, tag, changelog', path: '.reika/skills/release/SKILL.md', source: 'project' },
    { name: 'shared', description: 'the project version', path: '.reika/skills/shared/SKILL.md', source: 'project' },
  ]);
});

test('a skill without a usable SKILL.md is one line and the rest load', (t) => {
  const root = writeTree(tempDir(), {
    '.reika/skills/good/SKILL.md': skill('good', 'works'),
    '.reika/skills/no-description/SKILL.md': '---\nname: no-description\n---\nbody\n',
    '.reika/skills/broken/SKILL.md': '---\nname: broken\ndescription: never closed\n',
    '.reika/skills/empty-folder/notes.txt': 'not a skill',
    '.reika/skills/folder-name/SKILL.md': '---\ndescription: named after its folder\n---\n',
    '.reika/skills/long/SKILL.md': `---\ndescription: ${'x'.repeat(2000)}\n---\n`,
    '.reika/skills/stray-file.md': 'ignored: skills are folders',
  });
  const { skills, problems } = collectSkills(root, undefined);
  t.deepEqual(skills.map((s) => s.name), ['folder-name', 'good', 'long']);
  t.is(skills.find((s) => s.name === 'long')!.description.length, MAX_DESCRIPTION_CHARS);
  t.deepEqual(problems.map((line) => line.slice(root.length)), [
    '/.reika/skills/broken/SKILL.md: the front matter has no closing "---" line',
    '/.reika/skills/empty-folder/SKILL.md: has no SKILL.md',
    '/.reika/skills/no-description/SKILL.md: has no "description" in its front matter (the model picks a skill by it)',
  ]);
});

const facts = (skills: PromptFacts['skills']): PromptFacts => ({
  cwd: '/work/demo',
  summary: { name: 'demo', languages: [{ name: 'TypeScript', files: 3 }], packageManager: 'npm', testCommand: 'npm test' },
  agentsMd: [],
  repoMap: '',
  indexedFiles: 3,
  capped: false,
  headless: false,
  skills,
});

test('the system prompt lists each skill with its description and file, never its body; subagents get none', (t) => {
  const root = writeTree(tempDir(), { '.reika/skills/release/SKILL.md': skill('release', 'Cut a release') });
  const { skills } = collectSkills(root, undefined);
  const prompt = buildSystemPrompt('agent', facts(skills));
  t.regex(prompt, /\n# Skills\n.*`read` that skill's file first.*\n- release: Cut a release \(\.reika\/skills\/release\/SKILL\.md\)\n/);
  t.false(prompt.includes('The body, read only when needed'));
  t.regex(buildSystemPrompt('plan', facts(skills)), /- release: Cut a release/);
  t.false(buildSystemPrompt('subagent', facts(skills)).includes('# Skills'));
  t.false(buildSystemPrompt('agent', facts([])).includes('# Skills'), 'no skills, no section');
  t.is(buildSystemPrompt('agent', facts(collectSkills(root, undefined).skills)), prompt, 'the same files give the same bytes');
});
