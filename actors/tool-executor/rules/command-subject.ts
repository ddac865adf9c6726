import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { isInsideProject } from '../files/paths.js';
import { unwrapCommandLine, type Effective } from '../shell/unwrap.js';
import { normalise } from './command-pattern.js';

/**
 * A `bash` command line as permission rules see it: every simple command of the line, after the
 * unwrapping the danger rules use (`sudo`, `env`, `timeout`, `bash -c '…'`, `$( … )`, `xargs`,
 * `find -exec`…), each as the texts a `Bash(…)` rule is tried on.
 *
 * A deny or ask rule matches when it matches any text of any simple command (or the line as
 * written). An allow rule covers the line only when every simple command has a text it matches
 * and nothing in the line is beyond a parse: a command named at run time, a script only known at
 * run time, a parse error, a write redirected outside the project.
 */
export interface CommandSubject {
  /** The line as written, blanks normalised. */
  line: string;
  /** Per simple command, its texts: as written, with the program's base name, `git` without its global options. */
  commands: CommandTexts[];
  /** Why no allow rule can cover the line, when one cannot (looked at only when an allow rule could). */
  opaque(): string | undefined;
}

export interface CommandTexts {
  /** Texts deny and ask rules are tried on. */
  any: string[];
  /** Texts an allow rule must match (a command run through `sudo` keeps it in front). */
  allow: string[];
  /** `cd`, `true`…: changes nothing, needs no allow rule of its own. */
  neutral: boolean;
}

const NEUTRAL = new Set(['cd', 'pushd', 'popd', 'true', 'false', ':']);
const GIT_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix']);

export function commandSubject(source: string, root: string, home = homedir()): CommandSubject {
  const { commands, errors, hazards } = unwrapCommandLine(source, home);
  let why: string | undefined = errors.length > 0 ? `it could not be parsed (${errors[0]})` : hazards[0];
  const texts: CommandTexts[] = [];
  for (const command of commands) {
    if (command.words.length === 0) continue;
    if (command.computedName) why ??= `it runs a command named only at run time (${command.words[0]!.text})`;
    if (command.unknownScript !== undefined) why ??= 'it runs a script only known at run time';
    texts.push(textsOf(command));
  }
  let redirects: string | null | undefined;
  return {
    line: normalise(source),
    commands: texts,
    // Redirections are resolved on disk, so only once an allow rule is in question.
    opaque: () => why ?? (redirects ??= outsideRedirect(commands, root) ?? null) ?? undefined,
  };
}

function textsOf(command: Effective): CommandTexts {
  const written = normalise(command.words.map((word) => word.text).join(' '));
  const texts = new Set([written, normalise([command.name, ...command.args].join(' '))]);
  if (command.name === 'git') {
    const verbAt = gitVerbIndex(command.args);
    if (verbAt > 0) texts.add(normalise(['git', ...command.args.slice(verbAt)].join(' ')));
  }
  const any = [...texts];
  const allow = command.elevated && command.name !== command.elevated ? any.map((text) => `${command.elevated} ${text}`) : any;
  // `sudo -l` and the like are recorded as the elevator itself.
  if (command.elevated && command.name === command.elevated) any.push(...allow);
  return { any: command.elevated ? [...new Set([...any, ...allow])] : any, allow, neutral: NEUTRAL.has(command.name) && !command.elevated && command.redirects.length === 0 };
}

/** Where git's sub-command starts, past global options (`git -C dir push` is a `git push`). */
function gitVerbIndex(args: string[]): number {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += GIT_VALUE_OPTIONS.has(args[i]!) ? 2 : 1;
  return i;
}

/** A write redirected outside the project is not what a command rule allowed. */
function outsideRedirect(commands: Effective[], root: string): string | undefined {
  for (const command of commands) {
    for (const redirect of command.redirects) {
      if (!/^(>|>>|>\||&>|&>>|<>)$/.test(redirect.op)) continue;
      const target = redirect.target.text;
      if (/^\/dev\/(null|zero|stdout|stderr|tty|fd\/\d+)$/.test(target)) continue;
      if (redirect.target.dynamic || !isInsideProject(root, resolve(root, target))) return `it writes outside the project (${target})`;
    }
  }
  return undefined;
}
