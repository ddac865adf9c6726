import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFrontMatter } from '../../actors/prompt/front-matter.js';

export interface CustomCommand {
  /** Lower-case, as typed after `/`. */
  name: string;
  description: string;
  /** `argument-hint` of the front matter, for `/help` (e.g. `[file]`). */
  args?: string;
  /** The prompt, before `$ARGUMENTS` is filled in. */
  body: string;
  file: string;
  source: 'project' | 'user';
}

/**
 * Custom slash commands (SPEC §14): each `NAME.md` in the project's `.reika/commands/` and in
 * `~/.config/reika/commands/` is `/NAME [args]`, a prompt sent as a message with `$ARGUMENTS`
 * replaced by what follows the name. Front matter may give a `description` (shown by `/help` and
 * Tab completion) and an `argument-hint`. A project command replaces a user command of the same
 * name. The folders are read at every use, so an edited file counts at once. A file that cannot
 * be used is one line in `problems`; the others load.
 */
export interface CustomCommands {
  commands: CustomCommand[];
  problems: string[];
}

const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const DESCRIPTION_CHARS = 120;

/** The commands of `root` and of `userFolder` (the config's, `~/.config/reika`). */
export function loadCustomCommands(root: string, userFolder: string): CustomCommands {
  const problems: string[] = [];
  const byName = new Map<string, CustomCommand>();
  for (const [source, folder] of [['user', join(userFolder, 'commands')], ['project', join(root, '.reika', 'commands')]] as const) {
    for (const command of readFolder(folder, source, problems)) byName.set(command.name, command);
  }
  return { commands: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), problems };
}

function readFolder(folder: string, source: CustomCommand['source'], problems: string[]): CustomCommand[] {
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.md')).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') problems.push(`${folder}: cannot be read (${(error as Error).message})`);
    return [];
  }
  const out: CustomCommand[] = [];
  for (const entry of names) {
    const file = join(folder, entry);
    const name = entry.slice(0, -'.md'.length).toLowerCase();
    try {
      if (!NAME.test(name)) throw new Error('a command name is letters, digits, "_" or "-" (at most 64), starting with a letter or digit');
      const { fields, body } = parseFrontMatter(readFileSync(file, 'utf8'));
      const prompt = body.trim();
      if (prompt === '') throw new Error('has no prompt after its front matter');
      const description = oneLine(fields.description ?? '') || firstLine(prompt);
      out.push({ name, description, ...(fields['argument-hint'] ? { args: oneLine(fields['argument-hint']) } : {}), body: prompt, file, source });
    } catch (error) {
      problems.push(`${file}: ${(error as Error).message}`);
    }
  }
  return out;
}

/**
 * The message `/NAME args` sends: every `$ARGUMENTS` becomes `args`; a prompt without one gets
 * the arguments appended as a last paragraph, so they are never lost.
 */
export function expandCommand(command: Pick<CustomCommand, 'body'>, args: string): string {
  if (command.body.includes('$ARGUMENTS')) return command.body.split('$ARGUMENTS').join(args);
  return args === '' ? command.body : `${command.body}\n\n${args}`;
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '')?.replace(/^#+\s*/, '') ?? '';
  return oneLine(line);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > DESCRIPTION_CHARS ? `${line.slice(0, DESCRIPTION_CHARS - 1)}…` : line;
}

/**
 * `reika -p "/NAME args"`: the custom command's message, an error line when NAME is a command
 * file that cannot be used, or undefined when the input names no custom command (it is sent as
 * it is).
 */
export function expandTypedCommand(input: string, root: string, userFolder: string): { prompt: string } | { error: string } | undefined {
  const match = /^\/([a-z0-9][a-z0-9_-]*)(?:\s+([\s\S]*))?$/i.exec(input.trim());
  if (!match) return undefined;
  const name = match[1]!.toLowerCase();
  const { commands, problems } = loadCustomCommands(root, userFolder);
  const command = commands.find((c) => c.name === name);
  if (command) return { prompt: expandCommand(command, (match[2] ?? '').trim()) };
  const broken = problems.find((problem) => problem.toLowerCase().includes(`/${name}.md: `));
  return broken ? { error: broken } : undefined;
}
