import { homedir } from 'node:os';
import { dirname, relative, resolve } from 'node:path';
import { credentialReads } from './credential-reads.js';
import { rulesFor } from './danger-rules.js';
import { protectedReason } from '../safety/protected-paths.js';
import { gitFileStates } from '../files/git-files.js';
import { displayPath, isInsideProject, realPathOfNearest } from '../files/paths.js';
import { MAX_CHECKPOINT_FILE_BYTES } from '../safety/checkpoint-store.js';
import { notKeptBecause } from '../safety/kept-files.js';
import { readFlags, unwrapCommandLine, type Effective } from './unwrap.js';
import { doomedFiles, writeTargets, type Doomed } from './write-targets.js';

export { writeTargets } from './write-targets.js';

/**
 * Danger detection for `bash` in safe mode (SPEC §4), on the parsed command: every simple
 * command, wrappers looked through, flags normalised. Quoted mentions (`echo "rm -rf"`) are
 * arguments, not commands, so they never match. Writes are followed through `cd` (per subshell)
 * and through links made earlier in the same line. Returns one reason per finding; empty = safe.
 * `checkpoints`: whether a checkpoint is taken before the command (REIKA_CHECKPOINTS), which is
 * what brings back a small ignored file it deletes.
 */
export function commandDangers(source: string, root: string, home = homedir(), checkpoints = true): string[] {
  const { commands, errors, hazards } = unwrapCommandLine(source, home);
  const reasons: string[] = [];
  const add = (reason: string) => {
    if (!reasons.includes(reason)) reasons.push(reason);
  };
  if (errors.length > 0) add(`the command could not be parsed (${errors[0]})`);
  for (const hazard of hazards) add(hazard);
  if (FORK_BOMB.test(source)) add('defines a function that starts copies of itself without end (a fork bomb)');
  const cwds = new Cwds(root);
  const links = new Map<string, string>();
  const doomed: Doomed[] = [];
  for (const command of commands) {
    const cwd = cwds.at(command.scopes);
    for (const reason of rulesFor(command, { cwd, root })) add(reason);
    for (const reason of credentialReads(command, cwd, { home })) add(reason);
    for (const target of writeTargets(command)) {
      if (target.startsWith('$') || target.includes('$(') || target.includes('`')) continue;
      if (/^\/dev\/(null|zero|stdout|stderr|tty|fd\/\d+)$/.test(target)) continue;
      const base = target.startsWith('/') ? '' : cwd;
      if (base === undefined) continue;
      const absolute = throughLinks(resolve(base, target), links);
      const guarded = protectedReason(root, absolute, { home });
      if (guarded) add(guarded);
      if (!isInsideProject(root, absolute)) add(`writes outside the project: ${absolute}`);
      else if (guarded) continue;
      else if (realPathOfNearest(absolute).split('/').includes('.git')) add(`writes inside .git (${displayPath(root, absolute)}): the repository itself, which checkpoints do not hold`);
    }
    if (cwd !== undefined) {
      for (const file of doomedFiles(command, cwd)) {
        const path = throughLinks(file.path, links);
        if (isInsideProject(root, path)) doomed.push({ ...file, path });
      }
      recordLink(command, cwd, links);
    }
    if (command.name === 'cd' || command.name === 'pushd') {
      const dest = command.words[1];
      if (!dest) cwds.set(command.scopes, home);
      else if (dest.dynamic || dest.text === '-') cwds.set(command.scopes, undefined);
      else if (dest.text.startsWith('/')) cwds.set(command.scopes, throughLinks(resolve(dest.text), links));
      else cwds.set(command.scopes, cwd === undefined ? undefined : throughLinks(resolve(cwd, dest.text), links));
    } else if (command.name === 'popd') cwds.set(command.scopes, undefined);
  }
  for (const reason of unrestorable(doomed, root, checkpoints)) add(reason);
  return reasons;
}

/** `:(){ :|:& };:` and its renamings: a function that pipes into itself in the background. */
const FORK_BOMB = /(^|[\s;&|])([\w:.-]+)\s*\(\)\s*\{[^}]*\2\s*\|\s*\2\s*&/;

/** The working folder per subshell: a `cd` inside `( … )` or `$( … )` ends with it. */
class Cwds {
  private readonly entries: { scopes: number[]; cwd: string | undefined }[];

  constructor(root: string) {
    this.entries = [{ scopes: [], cwd: root }];
  }

  /** The folder for a command in `scopes`: the innermost enclosing subshell that changed it. */
  at(scopes: number[]): string | undefined {
    let best = this.entries[0]!;
    for (const entry of this.entries) {
      if (entry.scopes.length > best.scopes.length && entry.scopes.length <= scopes.length && entry.scopes.every((s, i) => scopes[i] === s)) best = entry;
    }
    return best.cwd;
  }

  set(scopes: number[], cwd: string | undefined): void {
    const entry = this.entries.find((e) => e.scopes.length === scopes.length && e.scopes.every((s, i) => scopes[i] === s));
    if (entry) entry.cwd = cwd;
    else this.entries.push({ scopes, cwd });
  }
}

/** `ln [-s] TARGET LINK` (or `-t DIR`): remembers LINK → TARGET so later paths through LINK resolve. */
function recordLink(command: Effective, cwd: string, links: Map<string, string>): void {
  if (command.name !== 'ln') return;
  const flags = readFlags(command.args, new Set(['-t', '--target-directory', '-S', '--suffix']));
  const symbolic = flags.short.has('s') || flags.long.has('symbolic');
  const dir = command.args.find((a, i) => command.args[i - 1] === '-t' || command.args[i - 1] === '--target-directory');
  const operands = flags.operands;
  const pairs: [string, string][] = dir
    ? operands.map((target) => [target, resolve(cwd, dir, target.split('/').pop()!)])
    : operands.length === 1
      ? [[operands[0]!, resolve(cwd, operands[0]!.split('/').pop()!)]]
      : operands.length === 2
        ? [[operands[0]!, resolve(cwd, operands[1]!)]]
        : [];
  for (const [target, link] of pairs) {
    if (target.includes('$') || target.includes('`')) continue;
    links.set(link, symbolic ? resolve(dirname(link), target) : resolve(cwd, target));
  }
}

function throughLinks(path: string, links: Map<string, string>): string {
  for (let round = 0; round < 8; round++) {
    let changed = false;
    for (const [link, target] of links) {
      if (path === link || path.startsWith(`${link}/`)) {
        path = target + path.slice(link.length);
        changed = true;
      }
    }
    if (!changed) break;
  }
  return path;
}

/** Reasons for the files whose content would be lost for good: git cannot restore them. */
function unrestorable(doomed: Doomed[], root: string, checkpoints: boolean): string[] {
  if (doomed.length === 0) return [];
  const states = gitFileStates(root, [...new Set(doomed.map((d) => d.path))]);
  const reasons: string[] = [];
  for (const file of doomed) {
    const shown = displayPath(root, file.path);
    if (file.kind === 'delete') {
      if (states.ignored.has(file.path)) {
        // A checkpoint keeps a small ignored file (kept-files.ts): /undo brings it back, as an untracked one.
        const why = checkpoints ? notKeptBecause(root, relative(root, file.path), file.size, states.ignoredFolders.get(file.path)) : 'and checkpoints are off';
        if (why) reasons.push(`${file.how} ${shown}, which git ignores, ${why}: nothing could restore it`);
      }
      else if (!states.tracked.has(file.path) && file.size > MAX_CHECKPOINT_FILE_BYTES) reasons.push(`${file.how} ${shown}, an untracked file too big for a checkpoint: nothing could restore it`);
    } else if (file.kind === 'replace') {
      if (states.ignored.has(file.path)) reasons.push(`${file.how} ${shown}, an ignored file git cannot restore`);
    } else if (!states.tracked.has(file.path)) {
      reasons.push(`${file.how} ${shown}, ${states.ignored.has(file.path) ? 'an ignored' : 'an untracked'} file git cannot restore`);
    }
  }
  return reasons;
}
