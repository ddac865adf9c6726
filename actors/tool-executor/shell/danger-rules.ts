import { codeDanger } from './danger-code.js';
import { gitRule } from './danger-git.js';
import { readFlags, SHELLS, subcommand as firstOperand, type Effective } from './unwrap.js';

// The SPEC §4 danger list for one unwrapped command, plus what a parse shows is destructive or
// unknowable: a command name computed at run time, a script produced at run time, inline code
// that deletes files, `sudo`, kills by name, disks, services, containers, destructive SQL.
// Returns the reasons (empty when the command is ordinary).

/** Where a command runs, for rules that look at the files named (`git checkout <path>`). */
export interface RuleContext {
  /** The folder the command runs in, when known. */
  cwd: string | undefined;
  root: string;
}

export function rulesFor(command: Effective, context: RuleContext): string[] {
  const reasons: string[] = [];
  if (command.computedName) reasons.push(`runs a command whose name is only known at run time (${command.words[0]!.text})`);
  if (command.elevated) {
    const infoOnly = command.name === command.elevated && command.args.length > 0 && command.args.every((a) => /^-[lvkKVh]+$|^--(list|validate|reset-timestamp|remove-timestamp|version|help)$/.test(a));
    if (!infoOnly) reasons.push(`${command.elevated} runs commands as root (outside reika's reach)`);
  }
  if (command.unknownScript !== undefined) reasons.push(`${command.name || 'the shell'} runs a script only known at run time (${short(command.unknownScript)})`);
  if (command.code !== undefined) {
    const found = codeDanger(command.code, /awk$/.test(command.name));
    if (found) reasons.push(`${command.name} runs inline code that ${found}`);
  }
  const rule = ruleFor(command, context);
  if (rule) reasons.push(rule);
  return reasons;
}

function short(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
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
  choco: ['install', 'uninstall', 'upgrade'],
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
const VALUE_OPTIONS = new Set(['--prefix', '-C', '--dir', '--cwd', '-w', '--workspace', '--filter', '-F', '--registry', '--cache', '--userconfig', '--globalconfig', '--loglevel', '--directory', '--project', '--python', '-p', '--proxy']);
const DISK_TOOLS = /^(mkfs(\..+)?|mke2fs|mkswap|wipefs|fdisk|sfdisk|cfdisk|gdisk|sgdisk|parted|blkdiscard|cryptsetup)$/;
const POWER = new Set(['shutdown', 'reboot', 'poweroff', 'halt']);
const SERVICE_VERBS = new Set(['stop', 'restart', 'kill', 'disable', 'mask', 'isolate', 'poweroff', 'reboot', 'halt', 'suspend', 'hibernate']);
const CONTAINER_VERBS = new Set(['rm', 'rmi', 'kill', 'prune']);
const SQL_CLIENTS = new Set(['psql', 'mysql', 'mariadb', 'sqlite3', 'duckdb', 'sqlcmd', 'clickhouse-client', 'mongosh']);

const subcommand = (args: string[], valueOptions = VALUE_OPTIONS) => firstOperand(args, valueOptions);

/** One rule per command name; undefined when it is ordinary. */
function ruleFor(command: Effective, context: RuleContext): string | undefined {
  const { name, args } = command;
  if (name === 'rm') {
    const flags = readFlags(args);
    const recursive = flags.short.has('r') || flags.short.has('R') || flags.long.has('recursive');
    const force = flags.short.has('f') || flags.long.has('force');
    if (recursive && force) return 'rm -rf deletes files recursively without asking';
    if (recursive) return 'rm -r deletes folders recursively';
    if (force) return 'rm -f deletes files without asking';
    if (command.via) return `${command.via === 'find' ? 'find -exec rm' : 'xargs rm'} deletes every file it is handed, chosen at run time`;
    return undefined;
  }
  if (command.via && ['unlink', 'shred', 'truncate', 'mv'].includes(name)) return `${command.via} ${name} changes every file it is handed, chosen at run time`;
  if (name === 'git') return gitRule(command, context);
  if (REMOTE_RUNNERS.has(name)) return `${name} downloads and runs a package`;
  if (name === 'curl' || name === 'wget') return `${name} transfers data over the network`;
  if (name === 'pkill' || name === 'killall') return `${name} kills processes by name`;
  if (name === 'kill') {
    if (command.words.slice(1).some((w) => w.substituted)) return 'kill with process ids found at run time (pgrep, pidof) kills processes by name';
    if (command.via) return 'xargs kill kills processes chosen at run time';
    // `kill -9 -1` signals every process the user may signal (`kill -1 PID` is SIGHUP to PID).
    if (args.indexOf('-1') > 0) return 'kill -1 kills every process it may';
    return undefined;
  }
  if (name === 'shred') return 'shred destroys file contents';
  if (name === 'mv' && readFlags(args).operands.at(-1)?.startsWith('/dev/')) return `mv onto ${readFlags(args).operands.at(-1)} deletes the file (and, run as root, replaces the device)`;
  if (name === 'find') {
    if (args.includes('-delete')) return 'find -delete deletes files';
    return undefined;
  }
  if (name === 'rg' && args.some((a) => a === '--pre' || a.startsWith('--pre='))) return 'rg --pre runs a command on every file it searches';
  if (name === 'go' && args.some((a) => a === '-exec' || a.startsWith('-exec='))) return `go ${subcommand(args).verb ?? ''} -exec runs the program it names`.replace('  ', ' ');
  if (name === 'rsync' && args.some((a) => a.startsWith('--delete') || a === '--remove-source-files')) return 'rsync --delete deletes what the source lacks in the destination';
  if (name === 'chown' || name === 'chgrp') return `${name} changes file ownership, which checkpoints do not restore`;
  if (name === 'chmod' && removesAccess(readFlags(args, new Set(['--reference'])).operands[0] ?? '')) return 'chmod takes read or write permission from the owner, which checkpoints do not restore';
  if (name === 'dropdb' || name === 'dropuser') return `${name} deletes a database or a role`;
  if (name === 'redis-cli' && args.some((a) => /^flush(all|db)$/i.test(a))) return 'redis-cli FLUSHALL/FLUSHDB deletes every key';
  if ((name === 'mysqladmin' || name === 'mariadb-admin') && args.some((a) => a === 'drop')) return `${name} drop deletes a database`;
  if (DISK_TOOLS.test(name)) return `${name} formats or repartitions a disk`;
  if (POWER.has(name)) return `${name} stops the machine`;
  if ((name === 'systemctl' || name === 'service') && args.some((a) => SERVICE_VERBS.has(a))) return `${name} stops or changes system services`;
  if (name === 'crontab' && args.some((a) => /^-[a-z]*r/.test(a))) return 'crontab -r deletes the crontab';
  if (name === 'docker' || name === 'podman') {
    const { verb, rest } = subcommand(args, new Set(['-H', '--host', '--context', '-c', '--config', '-l', '--log-level']));
    const inner = subcommand(rest).verb;
    if (verb && CONTAINER_VERBS.has(verb)) return `${name} ${verb} deletes containers or images`;
    if (verb && ['container', 'image', 'volume', 'network', 'system', 'builder', 'buildx'].includes(verb) && inner && ['rm', 'prune', 'remove'].includes(inner)) {
      return `${name} ${verb} ${inner} deletes ${verb === 'system' ? 'containers, images and volumes' : `${verb}s`}`;
    }
    if (verb === 'compose' && rest.includes('down') && rest.some((a) => a === '-v' || a === '--volumes')) return `${name} compose down -v deletes volumes`;
    return undefined;
  }
  if (name === 'kubectl' && ['delete', 'drain', 'replace'].includes(subcommand(args).verb ?? '')) return `kubectl ${subcommand(args).verb} changes a cluster`;
  if (name === 'helm' && ['uninstall', 'delete'].includes(subcommand(args).verb ?? '')) return 'helm uninstall deletes a release';
  if (name === 'terraform' || name === 'tofu') {
    const verb = subcommand(args).verb;
    if (verb === 'destroy' || (verb === 'apply' && args.some((a) => /^-?-auto-approve/.test(a)))) return `${name} ${verb} changes infrastructure without a plan review`;
  }
  if (SQL_CLIENTS.has(name)) {
    const sql = args.join(' ');
    if (/\b(DROP\s+(TABLE|DATABASE|SCHEMA|INDEX|VIEW|COLLECTION)|TRUNCATE\b|dropDatabase|\.drop\(\))/i.test(sql) || /\bDELETE\s+FROM\s+[\w."`]+\s*(;|$|['"])/i.test(sql)) return `${name} runs a destructive SQL statement`;
  }
  if (SHELLS.has(name) || name === 'eval') return undefined;
  if (name === 'dpkg' && args.some((a) => /^(-i|-r|-P|--install|--remove|--purge)$/.test(a))) return 'dpkg installs or removes packages';
  if (name === 'pacman' && args.some((a) => /^-[SRU]/.test(a) || /^--(sync|remove|upgrade)$/.test(a))) return 'pacman installs or removes packages';
  if (name === 'rpm' && args.some((a) => /^-[a-zA-Z]*[iUe]/.test(a) || /^--(install|upgrade|erase)$/.test(a))) return 'rpm installs or removes packages';
  return installRule(name, args);
}

/** A chmod mode that leaves the owner without read or write: `000`, `400`, `u-w`, `a=r`, `-r`. */
function removesAccess(mode: string): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) return (Number(mode.length === 4 ? mode[1] : mode[0]) & 6) !== 6;
  return mode.split(',').some((clause) => {
    const match = /^([ugoa]*)([-+=])([rwxXst]*)$/.exec(clause);
    if (!match) return false;
    const [, who, op, perms] = match as unknown as [string, string, string, string];
    const owner = who === '' || who.includes('u') || who.includes('a');
    if (!owner) return false;
    if (op === '-') return /[rw]/.test(perms);
    return op === '=' && !(perms.includes('r') && perms.includes('w'));
  });
}

function installRule(name: string, args: string[]): string | undefined {
  const manager = /^pip\d*(\.\d+)?$/.test(name) ? 'pip' : name;
  const installs = INSTALL_VERBS[manager];
  if (!installs) return undefined;
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
  return undefined;
}
