import { homedir } from 'node:os';
import { resolve, sep } from 'node:path';
import { credentialPaths, credentialReason, type CredentialPath, type CredentialOptions } from '../safety/credential-paths.js';
import type { Effective } from './unwrap.js';

/**
 * Which credential paths (SPEC §16) a command names: its words (the command itself, arguments,
 * the value of `--opt=path`), file redirections, globs that could match one (`~/.ss*`, `~/.*`;
 * a `*` at the start of a name does not match a dot, as in bash), inline interpreter code that
 * spells one (`python3 -c "open('/root/.netrc')"`), and `/proc/<pid>/environ` however the pid is
 * given. Paths are followed through the `cd` the caller tracks. A named credential path asks
 * first; what a command reaches without naming it is masked by the sandbox instead.
 */
export function credentialReads(command: Effective, cwd: string | undefined, options: CredentialOptions = {}): string[] {
  const home = options.home ?? homedir();
  const paths = credentialPaths(options);
  const reasons: string[] = [];
  const add = (found: CredentialPath, absolute: string) => {
    const reason = credentialReason('reads or names', found, absolute, home);
    if (!reasons.includes(reason)) reasons.push(reason);
  };
  const texts: { text: string; dynamic: boolean }[] = command.words.map((word) => ({ text: word.text, dynamic: word.dynamic }));
  for (const redirect of command.redirects) if (redirect.op !== '<<' && redirect.op !== '<<-' && redirect.op !== '<<<') texts.push({ text: redirect.target.text, dynamic: redirect.target.dynamic });
  for (const { text, dynamic } of [...texts]) {
    const equals = text.indexOf('=');
    if (equals > 0 && text.startsWith('-')) texts.push({ text: text.slice(equals + 1), dynamic });
  }
  const recursive = readsRecursively(command);
  for (const { text, dynamic } of texts) {
    if (/^\/proc\/.*environ\b/.test(text) || (dynamic && /\/proc\//.test(text) && /environ/.test(text))) {
      add({ path: text, label: '/proc/*/environ' }, text);
      continue;
    }
    if (dynamic || text === '' || (!text.startsWith('/') && cwd === undefined)) continue;
    const absolute = resolve(cwd ?? '/', text);
    const glob = /[*?[]/.test(text);
    for (const found of paths) {
      if (glob ? globReaches(absolute, found.path) : absolute === found.path || absolute.startsWith(found.path + sep)) add(found, glob ? found.path : absolute);
      else if (recursive && (found.path.startsWith(absolute + sep) || absolute === '/')) add(found, found.path);
    }
  }
  if (command.code) {
    for (const found of paths) {
      const tilde = found.path.startsWith(home + sep) ? `~${found.path.slice(home.length)}` : undefined;
      if (command.code.includes(found.path) || (tilde && command.code.includes(tilde))) add(found, found.path);
    }
    if (/\/proc\//.test(command.code) && /environ/.test(command.code)) add({ path: '/proc/*/environ', label: '/proc/*/environ' }, '/proc/*/environ');
  }
  return reasons;
}

/** True when a glob could match `path` itself, a folder above it, or something inside it. */
function globReaches(pattern: string, path: string): boolean {
  const wanted = pattern.split('/').filter(Boolean);
  const parts = path.split('/').filter(Boolean);
  const common = Math.min(wanted.length, parts.length);
  for (let i = 0; i < common; i++) if (!segmentMatches(wanted[i]!, parts[i]!)) return false;
  // Shorter, it names a folder above (`~/.*` names ~/.ssh itself); longer, something inside.
  return true;
}

/** Commands that take a folder's whole content, so naming a folder above a credential path reaches it. */
function readsRecursively(command: Effective): boolean {
  const flags = command.args.filter((arg) => arg.startsWith('-'));
  switch (command.name) {
    case 'tar':
    case 'zip':
    case '7z':
    case 'rsync':
    case 'scp':
    case 'rg':
    case 'ag':
      return true;
    case 'cp':
    case 'grep':
    case 'egrep':
    case 'chmod':
    case 'du':
      return flags.some((flag) => /^-[^-]*[rRa]/.test(flag) || flag === '--recursive' || flag === '--archive');
    default:
      return false;
  }
}

function segmentMatches(glob: string, name: string): boolean {
  if (!/[*?[]/.test(glob)) return glob === name;
  if (name.startsWith('.') && !glob.startsWith('.')) return false;
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) source += '\\[';
      else {
        source += `[${glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else source += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  try {
    return new RegExp(`^${source}$`).test(name);
  } catch {
    return true;
  }
}
