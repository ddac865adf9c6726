import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFrontMatter } from './front-matter.js';

export interface Skill {
  name: string;
  description: string;
  /** Where the model reads it: relative to the project root for the project's, else absolute. */
  path: string;
  source: 'project' | 'user';
}

/**
 * Skills (SPEC §14): `.reika/skills/NAME/SKILL.md` in the project and `skills/NAME/SKILL.md` in
 * the user's folder (`~/.config/reika`), each with front matter `name` and `description`. Only
 * the names and descriptions go in the frozen system prompt; the model reads a skill's body with
 * `read` when a task calls for it, so a long skill costs nothing until it is used. A project
 * skill replaces a user skill of the same name. A folder that cannot be used is one line in
 * `problems`; the others load.
 */
export interface Skills {
  /** Sorted by name: the same files give the same prompt, byte for byte. */
  skills: Skill[];
  problems: string[];
}

/** At most this many skills are listed (the prompt stays bounded), each description cut here. */
export const MAX_SKILLS = 100;
export const MAX_DESCRIPTION_CHARS = 1024;
const MAX_NAME_CHARS = 64;

export function collectSkills(root: string, userFolder: string | undefined): Skills {
  const problems: string[] = [];
  const byName = new Map<string, Skill>();
  const folders: [Skill['source'], string, (name: string) => string][] = [];
  if (userFolder) folders.push(['user', join(userFolder, 'skills'), (name) => join(userFolder, 'skills', name, 'SKILL.md')]);
  folders.push(['project', join(root, '.reika', 'skills'), (name) => `.reika/skills/${name}/SKILL.md`]);
  for (const [source, folder, shown] of folders) {
    let names: string[];
    try {
      names = readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') problems.push(`${folder}: cannot be read (${(error as Error).message})`);
      continue;
    }
    for (const folderName of names) {
      const file = join(folder, folderName, 'SKILL.md');
      try {
        let text: string;
        try {
          text = readFileSync(file, 'utf8');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('has no SKILL.md');
          throw error;
        }
        const { fields } = parseFrontMatter(text);
        const name = oneLine(fields.name ?? folderName);
        const description = oneLine(fields.description ?? '');
        if (name === '' || name.length > MAX_NAME_CHARS) throw new Error(`"name" is 1 to ${MAX_NAME_CHARS} characters`);
        if (description === '') throw new Error('has no "description" in its front matter (the model picks a skill by it)');
        byName.set(name, { name, description: cut(description, MAX_DESCRIPTION_CHARS), path: shown(folderName), source });
      } catch (error) {
        problems.push(`${file}: ${(error as Error).message}`);
      }
    }
  }
  const skills = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (skills.length > MAX_SKILLS) problems.push(`${skills.length} skills: only the first ${MAX_SKILLS} by name are listed for the model`);
  return { skills: skills.slice(0, MAX_SKILLS), problems };
}

/** The system prompt's section, or no lines when there are no skills. */
export function renderSkills(skills: readonly Skill[]): string[] {
  if (skills.length === 0) return [];
  return [
    '',
    '# Skills',
    'Each skill is a file of instructions for one kind of task. When a task matches a description below, `read` that skill\'s file first and follow it.',
    ...skills.map((skill) => `- ${skill.name}: ${skill.description} (${skill.path})`),
  ];
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
