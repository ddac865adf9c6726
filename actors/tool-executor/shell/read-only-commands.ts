import { commandDangers, writeTargets } from './danger.js';
import { readFlags, unwrapCommandLine, type Effective } from './unwrap.js';

// The `plan` mode allowlist for `bash`: commands that only look. A command line passes when every
// simple command in it (wrappers looked through) is on the list and nothing is written except to
// /dev/null.

const LOOKING = new Set([
  'ls', 'cat', 'head', 'tail', 'wc', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ack', 'tree', 'pwd', 'echo', 'printf',
  'file', 'stat', 'du', 'df', 'which', 'type', 'whereis', 'sort', 'uniq', 'cut', 'tr', 'diff', 'cmp', 'comm',
  'basename', 'dirname', 'realpath', 'readlink', 'date', 'uname', 'true', 'false', 'test', '[', '[[', 'jq', 'nl',
  'less', 'more', 'column', 'fd', 'fdfind', 'find', 'sed', 'awk', 'env', 'printenv', 'whoami', 'id', 'hostname',
  'md5sum', 'sha1sum', 'sha256sum', 'xxd', 'hexdump', 'od', 'strings', 'tac', 'rev', 'fold', 'expand', 'paste',
  'join', 'seq', 'cd', 'git', 'node', 'python', 'python3', 'go', 'cargo', 'npm', 'tsc', 'ps', 'lscpu', 'free', 'uptime',
]);

const GIT_LOOKING = new Set(['status', 'log', 'diff', 'show', 'blame', 'rev-parse', 'ls-files', 'ls-tree', 'grep', 'describe', 'shortlog', 'cat-file', 'rev-list', 'merge-base', 'reflog', 'whatchanged', 'name-rev', 'branch', 'tag', 'remote', 'config', 'stash']);

/** Why a command line is not read-only, or undefined when it is. */
export function readOnlyViolation(source: string, root: string): string | undefined {
  const { commands, errors } = unwrapCommandLine(source);
  if (errors.length > 0) return `the command could not be parsed (${errors[0]})`;
  const dangers = commandDangers(source, root);
  if (dangers.length > 0) return dangers[0];
  for (const command of commands) {
    const why = violation(command);
    if (why) return why;
  }
  return undefined;
}

function violation(command: Effective): string | undefined {
  const writes = writeTargets(command).filter((target) => target !== '/dev/null');
  if (writes.length > 0) return `it writes to ${writes[0]}`;
  if (command.name === '') return undefined;
  if (command.computedName) return 'its command name is computed at run time';
  if (!LOOKING.has(command.name)) return `${command.name} is not on the read-only list`;
  const { name, args } = command;
  const flags = readFlags(args);
  switch (name) {
    case 'find':
      return args.some((a) => /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/.test(a)) ? 'find with -delete/-exec/-fprint can change files' : undefined;
    case 'sed':
      return flags.short.has('i') || flags.long.has('in-place') ? 'sed -i edits files' : undefined;
    case 'awk':
      return args.some((a) => /system\s*\(|>\s*"|\|\s*"/.test(a)) ? 'this awk program runs commands or writes files' : undefined;
    case 'node':
    case 'python':
    case 'python3':
      return args.length === 1 && ['--version', '-V'].includes(args[0]!) ? undefined : `${name} runs arbitrary code`;
    case 'go':
    case 'cargo':
    case 'npm':
    case 'tsc':
      return args.length === 1 && ['--version', 'version', '-v', '-V'].includes(args[0]!) ? undefined : `${name} ${args[0] ?? ''} may change files`.trim();
    case 'git': {
      const verb = args.find((a) => !a.startsWith('-'));
      if (!verb || !GIT_LOOKING.has(verb)) return `git ${verb ?? ''} may change the repository`.trim();
      const rest = readFlags(args.slice(args.indexOf(verb) + 1));
      if (verb === 'branch' && (rest.operands.length > 0 || ['d', 'D', 'm', 'M', 'c', 'C'].some((f) => rest.short.has(f)))) return 'git branch with a name changes branches';
      if (verb === 'tag' && rest.operands.length > 0 && !rest.short.has('l') && !rest.long.has('list')) return 'git tag with a name creates a tag';
      if (verb === 'remote' && rest.operands.length > 0 && !['show', 'get-url'].includes(rest.operands[0]!)) return `git remote ${rest.operands[0]} changes remotes`;
      if (verb === 'config' && !['get', 'list', 'get-all', 'get-regexp', 'l'].some((f) => rest.long.has(f) || rest.short.has(f) || rest.operands[0] === f)) return 'git config may change settings';
      if (verb === 'stash' && !['list', 'show'].includes(rest.operands[0] ?? '')) return 'git stash changes the working tree';
      return undefined;
    }
    default:
      return undefined;
  }
}
