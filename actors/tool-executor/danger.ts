import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { isInsideProject } from './paths.js';
import { readFlags, unwrapCommandLine, type Effective } from './shell-unwrap.js';

/**
 * Danger detection for `bash` in safe mode (SPEC §4), on the parsed command: every simple
 * command, wrappers looked through, flags normalised. Quoted mentions (`echo "rm -rf"`) are
 * arguments, not commands, so they never match. Returns one reason per finding; empty = safe.
 */
export function commandDangers(source: string, root: string, home = homedir()): string[] {
  const { commands, errors } = unwrapCommandLine(source, home);
  const reasons: string[] = [];
  const add = (reason: string) => {
    if (!reasons.includes(reason)) reasons.push(reason);
  };
  if (errors.length > 0) add(`the command could not be parsed (${errors[0]})`);
  let cwd: string | undefined = root;
  for (const command of commands) {
    if (command.computedName) add('runs a command whose name is computed at run time');
    const reason = ruleFor(command);
    if (reason) add(reason);
    for (const target of writeTargets(command)) {
      if (target.startsWith('$') || target.includes('$(') || target.includes('`')) continue;
      if (/^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/.test(target)) continue;
      const base = target.startsWith('/') ? '' : cwd;
      if (base === undefined) continue;
      const absolute = resolve(base, target);
      if (!isInsideProject(root, absolute)) add(`writes outside the project: ${absolute}`);
    }
    if (command.depth === 0 && (command.name === 'cd' || command.name === 'pushd')) {
      const dest = command.words[1];
      if (!dest) cwd = home;
      else if (dest.dynamic || dest.text === '-') cwd = undefined;
      else if (cwd !== undefined || dest.text.startsWith('/')) cwd = resolve(cwd ?? '/', dest.text);
    }
  }
  return reasons;
}

const INSTALL_VERBS: Record<string, string[]> = {
  npm: ['install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isnta', 'isntal', 'isntall', 'add', 'ci', 'clean-install', 'ic', 'install-clean', 'install-test', 'it', 'install-ci-test', 'cit', 'uninstall', 'unin', 'remove', 'rm', 'r', 'un', 'unlink', 'update', 'up', 'upgrade', 'udpate', 'link', 'ln'],
  pnpm: ['install', 'i', 'add', 'remove', 'rm', 'uninstall', 'un', 'update', 'up', 'upgrade', 'link', 'ln', 'unlink', 'import', 'install-test', 'it'],
  yarn: ['install', 'add', 'remove', 'upgrade', 'up', 'upgrade-interactive', 'global', 'link', 'unlink'],
  bun: ['install', 'i', 'add', 'a', 'remove', 'rm', 'uninstall', 'update', 'upgrade', 'link', 'unlink'],
  pip: ['install', 'uninstall', 'download'],
  pipx: ['install', 'uninstall', 'reinstall', 'upgrade', 'inject', 'uninject', 'uninstall-all', 'reinstall-all', 'upgrade-all', 'install-all'],
  uv: ['add', 'remove', 'sync'],
  apt: ['install', 'remove', 'purge', 'autoremove', 'reinstall', 'upgrade', 'full-upgrade', 'dist-upgrade', 'build-dep'],
  dnf: ['install', 'in', 'remove', 'rm', 'erase', 'upgrade', 'update', 'up', 'reinstall', 'downgrade', 'autoremove', 'groupinstall', 'localinstall', 'group'],
  brew: ['install', 'uninstall', 'remove', 'rm', 'reinstall', 'upgrade', 'bundle'],
  cargo: ['install', 'uninstall', 'add', 'remove', 'rm', 'binstall'],
  gem: ['install', 'uninstall', 'update'],
  go: ['install', 'get'],
  apk: ['add', 'del'],
  snap: ['install', 'remove', 'refresh'],
  conda: ['install', 'remove', 'uninstall', 'create', 'update', 'upgrade'],
  poetry: ['add', 'remove', 'install'],
  composer: ['require', 'install', 'remove', 'update'],
  deno: ['install', 'add', 'remove', 'uninstall'],
  bundle: ['install', 'add', 'update'],
};
INSTALL_VERBS['apt-get'] = INSTALL_VERBS.apt!;
INSTALL_VERBS.aptitude = INSTALL_VERBS.apt!;
INSTALL_VERBS.yum = INSTALL_VERBS.dnf!;
INSTALL_VERBS.microdnf = INSTALL_VERBS.dnf!;
INSTALL_VERBS.zypper = INSTALL_VERBS.dnf!;
INSTALL_VERBS.mamba = INSTALL_VERBS.conda!;
INSTALL_VERBS.micromamba = INSTALL_VERBS.conda!;

/** Sub-commands that fetch a package and run it, as `npx` does. */
const RUN_REMOTE: Record<string, string[]> = {
  npm: ['exec', 'x', 'create', 'innit', 'init'],
  pnpm: ['dlx', 'create'],
  yarn: ['dlx', 'create'],
  bun: ['x', 'create'],
  pipx: ['run'],
  uv: [],
};
const REMOTE_RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'uvx']);
/** Options whose value is the next word, so the sub-command comes after it. */
const VALUE_OPTIONS = new Set(['--prefix', '-C', '--dir', '--cwd', '-w', '--workspace', '--filter', '-F', '--registry', '--cache', '--userconfig', '--globalconfig', '--loglevel', '--directory', '--project', '--python', '-p']);
const GIT_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix']);

/** The first word that is not an option (nor an option's value). */
function subcommand(args: string[], valueOptions = VALUE_OPTIONS): { verb: string | undefined; rest: string[] } {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') return { verb: args[i + 1], rest: args.slice(i + 2) };
    if (arg.startsWith('-')) {
      if (valueOptions.has(arg)) i++;
      continue;
    }
    return { verb: arg, rest: args.slice(i + 1) };
  }
  return { verb: undefined, rest: [] };
}

/** The SPEC §4 danger list for one unwrapped command; undefined when it is ordinary. */
export function ruleFor(command: Effective): string | undefined {
  const { name, args } = command;
  if (name === 'rm') {
    const flags = readFlags(args);
    const recursive = flags.short.has('r') || flags.short.has('R') || flags.long.has('recursive');
    const force = flags.short.has('f') || flags.long.has('force');
    if (recursive && force) return 'rm -rf deletes files recursively without asking';
    if (recursive) return 'rm -r deletes folders recursively';
    if (force) return 'rm -f deletes files without asking';
    return undefined;
  }
  if (name === 'git') return gitRule(args);
  if (REMOTE_RUNNERS.has(name)) return `${name} downloads and runs a package`;
  if (name === 'curl' || name === 'wget') return `${name} transfers data over the network`;
  if (name === 'pkill' || name === 'killall') return `${name} kills processes by name`;
  if (name === 'shred') return 'shred destroys file contents';
  if (name === 'find' && args.includes('-delete')) return 'find -delete deletes files';
  if (name === 'dpkg' && args.some((a) => /^(-i|-r|-P|--install|--remove|--purge)$/.test(a))) return 'dpkg installs or removes packages';
  if (name === 'pacman' && args.some((a) => /^-[SRU]/.test(a) || /^--(sync|remove|upgrade)$/.test(a))) return 'pacman installs or removes packages';
  const manager = /^pip\d*(\.\d+)?$/.test(name) ? 'pip' : name;
  const installs = INSTALL_VERBS[manager];
  if (installs) {
    const { verb, rest } = subcommand(args);
    if (manager === 'yarn' && verb === undefined && !args.some((a) => /^(-v|--version|-h|--help)$/.test(a))) return 'yarn installs packages';
    if (verb === undefined) return undefined;
    if (manager === 'uv' && verb === 'pip') {
      const inner = subcommand(rest).verb;
      return inner && ['install', 'uninstall', 'sync'].includes(inner) ? `uv pip ${inner} installs or removes packages` : undefined;
    }
    if (manager === 'uv' && verb === 'tool') {
      const inner = subcommand(rest).verb;
      if (inner === 'run') return 'uv tool run downloads and runs a package';
      return inner && ['install', 'uninstall', 'upgrade'].includes(inner) ? `uv tool ${inner} installs or removes packages` : undefined;
    }
    if (RUN_REMOTE[manager]?.includes(verb)) {
      if (verb === 'init' || verb === 'innit') return subcommand(rest).verb ? `${name} init <package> downloads and runs a package` : undefined;
      return `${name} ${verb} downloads and runs a package`;
    }
    if (installs.includes(verb)) return `${name} ${verb} installs or removes packages`;
  }
  return undefined;
}

function gitRule(args: string[]): string | undefined {
  const { verb, rest } = subcommand(args, GIT_VALUE_OPTIONS);
  const flags = readFlags(rest);
  switch (verb) {
    case 'push': {
      if (flags.short.has('f') || flags.long.has('force') || flags.long.has('force-with-lease') || flags.long.has('force-if-includes') || flags.long.has('mirror')) {
        return 'git push --force rewrites remote history';
      }
      if (flags.operands.slice(1).some((ref) => ref.startsWith('+'))) return 'git push +branch force-pushes and rewrites remote history';
      if (flags.short.has('d') || flags.long.has('delete') || flags.operands.slice(1).some((ref) => ref.startsWith(':'))) return 'git push --delete deletes a remote branch';
      return undefined;
    }
    case 'reset':
      return flags.long.has('hard') ? 'git reset --hard discards uncommitted changes' : undefined;
    case 'checkout':
      if (rest.includes('--')) return 'git checkout -- discards uncommitted changes';
      return flags.short.has('f') || flags.long.has('force') ? 'git checkout --force discards uncommitted changes' : undefined;
    case 'restore':
      return (flags.short.has('S') || flags.long.has('staged')) && !(flags.short.has('W') || flags.long.has('worktree'))
        ? undefined
        : 'git restore discards uncommitted changes';
    case 'stash': {
      const action = flags.operands[0];
      return action === 'drop' || action === 'clear' ? `git stash ${action} deletes stashed changes` : undefined;
    }
    case 'clean':
      return flags.short.has('f') || flags.long.has('force') ? 'git clean -f deletes untracked files' : undefined;
    case 'branch':
      return flags.short.has('D') || ((flags.short.has('d') || flags.long.has('delete')) && (flags.short.has('f') || flags.long.has('force')))
        ? 'git branch -D deletes a branch even if unmerged'
        : undefined;
    default:
      return undefined;
  }
}

/** Paths a command writes to: redirections, and the targets of common file commands. */
export function writeTargets(command: Effective): string[] {
  const targets = command.redirects.filter((r) => ['>', '>>', '>|', '&>', '&>>', '<>'].includes(r.op)).map((r) => r.target.text);
  const { name, args } = command;
  const flags = () => readFlags(args, new Set(['-t', '--target-directory', '-m', '--mode', '-S', '--suffix', '-s', '--size', '-o', '-g']));
  switch (name) {
    case 'tee':
    case 'touch':
    case 'mkdir':
    case 'rmdir':
    case 'rm':
    case 'truncate':
    case 'unlink':
    case 'shred':
      targets.push(...flags().operands);
      break;
    case 'cp':
    case 'mv':
    case 'ln':
    case 'install':
    case 'rsync': {
      const target = args.find((arg, i) => args[i - 1] === '-t' || args[i - 1] === '--target-directory') ?? args.find((a) => a.startsWith('--target-directory='))?.split('=')[1];
      const operands = flags().operands;
      if (target) targets.push(target);
      else if (operands.length >= 2 && !(name === 'rsync' && operands.at(-1)!.includes(':'))) targets.push(operands.at(-1)!);
      break;
    }
    case 'dd':
      for (const arg of args) if (arg.startsWith('of=')) targets.push(arg.slice(3));
      break;
  }
  return targets;
}
