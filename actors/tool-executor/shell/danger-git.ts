import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RuleContext } from './danger-rules.js';
import { readFlags, subcommand, type Effective } from './unwrap.js';

// Git sub-commands that discard work git cannot give back (uncommitted changes, untracked files,
// unreachable commits, remote history), and `-c` values that make git run a command.

const GIT_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix']);
/** Config keys whose value git runs (or that choose what it runs). */
const COMMAND_KEYS = /^(alias\..+|core\.(pager|editor|sshcommand|fsmonitor|hookspath|askpass|gitproxy)|diff\.external|sequence\.editor|.+\.(textconv|command|cmd|helper|program|tool|clean|smudge|process)|uploadpack\.packobjectshook|credential\..*helper)$/i;

export function gitRule(command: Effective, context: RuleContext): string | undefined {
  const { args, configs, cwd } = globalOptions(command.args, context.cwd);
  for (const [key, value] of configs) {
    if (COMMAND_KEYS.test(key) && (!/^alias\./i.test(key) || value.startsWith('!'))) return `git -c ${key}=… makes git run a command given on the command line`;
  }
  let { verb, rest } = subcommand(args, GIT_VALUE_OPTIONS);
  // `git -c alias.x='reset --hard' x`: judge what the alias expands to.
  const alias = verb ? configs.get(`alias.${verb.toLowerCase()}`) : undefined;
  if (alias !== undefined && !alias.startsWith('!')) {
    const expanded = [...alias.trim().split(/\s+/), ...rest];
    verb = expanded[0];
    rest = expanded.slice(1);
  }
  const flags = readFlags(rest, new Set(['-b', '-B', '--orphan', '-c', '-C', '-m', '-s', '--source', '--pathspec-from-file']));
  const has = (short: string, ...long: string[]) => [...short].some((c) => flags.short.has(c)) || long.some((l) => flags.long.has(l));
  switch (verb) {
    case 'push': {
      if (has('f', 'force', 'force-with-lease', 'force-if-includes', 'mirror')) return 'git push --force rewrites remote history';
      if (flags.operands.slice(1).some((ref) => ref.startsWith('+'))) return 'git push +branch force-pushes and rewrites remote history';
      if (has('d', 'delete', 'prune') || flags.operands.slice(1).some((ref) => ref.startsWith(':'))) return 'git push --delete deletes a remote branch';
      return undefined;
    }
    case 'reset':
      return has('', 'hard', 'merge') ? `git reset --${flags.long.has('hard') ? 'hard' : 'merge'} discards uncommitted changes` : undefined;
    case 'checkout':
      return checkoutRule(rest, flags, has, cwd);
    case 'restore':
      return has('S', 'staged') && !has('W', 'worktree') ? undefined : 'git restore discards uncommitted changes';
    case 'switch':
      return has('fC', 'discard-changes', 'force', 'force-create') ? 'git switch --discard-changes/--force discards uncommitted changes' : undefined;
    case 'stash': {
      const action = flags.operands[0];
      return action === 'drop' || action === 'clear' ? `git stash ${action} deletes stashed changes` : undefined;
    }
    case 'clean':
      return has('f', 'force') && !has('n', 'dry-run') ? `git clean -f deletes untracked${has('x') || has('X') ? ' and ignored' : ''} files` : undefined;
    case 'rm':
      if (has('', 'cached')) return undefined;
      return has('rf', 'force') ? `git rm ${has('r') ? '-r' : '-f'} deletes files from the working tree` : undefined;
    case 'tag':
      return has('d', 'delete') ? 'git tag -d deletes a tag' : undefined;
    case 'branch':
      return has('D') || (has('d', 'delete') && has('f', 'force')) ? 'git branch -D deletes a branch even if unmerged' : undefined;
    case 'reflog':
      return ['expire', 'delete'].includes(flags.operands[0] ?? '') ? `git reflog ${flags.operands[0]} makes lost commits unrecoverable` : undefined;
    case 'gc':
      return rest.some((a) => /^--prune(=|$)/.test(a) && a !== '--prune=never') ? 'git gc --prune deletes unreachable commits' : undefined;
    case 'prune':
      return 'git prune deletes unreachable commits';
    case 'worktree':
      return flags.operands[0] === 'remove' && has('f', 'force') ? 'git worktree remove --force deletes a worktree and its changes' : undefined;
    case 'filter-branch':
    case 'filter-repo':
      return `git ${verb} rewrites history`;
    case 'read-tree':
      // Plumbing that replaces the index (staged changes go); -u writes its files over the work tree, --reset even over changes.
      if (has('n', 'dry-run') || rest.some((a) => a.startsWith('--index-output'))) return undefined;
      return has('u') ? 'git read-tree -u overwrites files and the index: uncommitted changes are lost' : 'git read-tree replaces the index: staged changes are lost';
    case 'checkout-index':
      return has('f', 'force') ? 'git checkout-index --force overwrites files with the index’s: uncommitted changes are lost' : undefined;
    case 'update-ref':
      return has('d') ? 'git update-ref -d deletes a ref' : undefined;
    case 'config': {
      const [key, value] = flags.operands;
      if (key && value !== undefined && COMMAND_KEYS.test(key) && (!/^alias\./i.test(key) || value.startsWith('!'))) return `git config ${key} sets a command git will run`;
      return undefined;
    }
    default:
      return undefined;
  }
}

/** `-c key=value` settings, `-C dir`, and the arguments from the sub-command on. */
function globalOptions(args: string[], cwd: string | undefined): { args: string[]; configs: Map<string, string>; cwd: string | undefined } {
  const configs = new Map<string, string>();
  let at = cwd;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-c' || (arg.startsWith('-c') && arg.length > 2)) {
      const setting = arg === '-c' ? (args[++i] ?? '') : arg.slice(2);
      const eq = setting.indexOf('=');
      configs.set((eq === -1 ? setting : setting.slice(0, eq)).toLowerCase(), eq === -1 ? 'true' : setting.slice(eq + 1));
    } else if (arg === '--config-env' || arg.startsWith('--config-env=')) {
      const setting = arg === '--config-env' ? (args[++i] ?? '') : arg.slice('--config-env='.length);
      configs.set(setting.split('=')[0]!.toLowerCase(), '!');
    } else if (arg === '-C') {
      const dir = args[++i];
      at = dir === undefined || at === undefined ? undefined : resolve(at, dir);
    } else if (GIT_VALUE_OPTIONS.has(arg)) {
      i++;
    } else if (!arg.startsWith('-')) break;
  }
  return { args: args.slice(i), configs, cwd: at };
}

function checkoutRule(rest: string[], flags: ReturnType<typeof readFlags>, has: (short: string, ...long: string[]) => boolean, cwd: string | undefined): string | undefined {
  if (rest.includes('--')) return 'git checkout -- discards uncommitted changes';
  if (has('f', 'force')) return 'git checkout --force discards uncommitted changes';
  if (has('p', 'patch')) return 'git checkout -p discards uncommitted changes';
  if (has('bB', 'orphan', 'detach')) return undefined;
  const operands = flags.operands;
  // `git checkout <tree-ish> <path>…`: everything after the first operand is a path.
  if (operands.length >= 2) return `git checkout ${operands[0]} ${operands[1]} discards uncommitted changes to ${operands[1]}`;
  const [only] = operands;
  if (only === undefined) return undefined;
  if (only === '.' || only === '..' || only.startsWith(':/') || only.startsWith('./') || only.endsWith('/') || /[*?[]/.test(only)) {
    return `git checkout ${only} discards uncommitted changes`;
  }
  if (cwd !== undefined && existsSync(resolve(cwd, only)) && !isRevision(cwd, only)) return `git checkout ${only} discards uncommitted changes to ${only}`;
  return undefined;
}

/** True when git reads `name` as a commit in the repository at `cwd` (then checkout switches to it). */
function isRevision(cwd: string, name: string): boolean {
  try {
    execFileSync('git', ['rev-parse', '--verify', '--quiet', '--end-of-options', `${name}^{commit}`], { cwd, stdio: 'ignore', timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}
