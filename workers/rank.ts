import type { RepoMapFile } from '../actors/indexer/protocol.js';
import type { FileSymbols } from './extract.js';

/**
 * Ranks the repo map's files, in an indexer worker: a reference graph (file A mentions an
 * identifier that file B defines → edge A→B) scored by personalised PageRank.
 *
 * An edge's weight is the sum over the identifiers behind it of:
 * - specificity: ((length − 2) / 6)², at most 1, so `get` weighs 1/36 of `loadUser`; compound
 *   names (`parseConfig`, `read_file`) of 8+ characters count twice;
 * - rarity: 1 + ln((N+1)/(df+1)), df the number of files that mention the identifier, so a word
 *   every file says (`name`, `value`) carries little;
 * - the definer's share: split between the files defining the identifier (exported definitions
 *   count 4× private ones), and damped by 1/√(definers) so names defined all over carry little.
 * A file that defines an identifier itself is taken to mean its own. Tests, generated and vendored
 * files get a tenth of the teleport mass (and of their final score) so they cannot crowd out the
 * core. Scores are quantised before sorting, ties go by path: the same files give the same order.
 */

const DAMPING = 0.85;
const MAX_ITERATIONS = 100;
const TOLERANCE = 1e-12;
const PRIVATE_WEIGHT = 0.25;
/**
 * A file passes on its whole rank only when its references weigh at least this much (about one
 * long, rare identifier); weaker evidence passes on a part, the rest goes back to the teleport
 * vector. Without it a file whose only link is a stray `get` would hand all its rank to whoever
 * exports `get`.
 */
const FULL_EVIDENCE = 2;
/** Names that never stand for one definition (the anonymous `export default`). */
const UNLINKED = new Set(['default']);

export type FileRole = 'core' | 'test' | 'generated';

const ROLE_WEIGHT: Record<FileRole, number> = { core: 1, test: 0.1, generated: 0.05 };

const TEST_DIR = /(?:^|\/)(?:tests?|__tests__|specs?|testing|testdata|test-?data|fixtures|__fixtures__|__mocks__|e2e)\//i;
const TEST_FILE =
  /(?:\.(?:test|spec|e2e)\.[^/]+|_test\.(?:go|py|rb|exs?)|(?:^|\/)test_[^/]+\.py|(?:^|\/)conftest\.py|(?:Tests?|Spec)\.(?:java|kt|cs|swift|php|scala)|_spec\.rb)$/;
const GENERATED_DIR = /(?:^|\/)(?:vendor|third[_-]party|generated|__generated__|gen)\//i;
const GENERATED_FILE = /(?:\.(?:generated|gen|g|pb|pb\.gw|min)\.[^/]+|_pb2(?:_grpc)?\.py|\.pb\.(?:h|cc)|_gen\.go|_string\.go)$/;

/** What a path is, for ranking: core source, a test, or generated/vendored code. */
export function roleOf(path: string, generated = false): FileRole {
  if (generated || GENERATED_DIR.test(path) || GENERATED_FILE.test(path)) return 'generated';
  if (TEST_DIR.test(path) || TEST_FILE.test(path)) return 'test';
  return 'core';
}

function specificity(name: string): number {
  const base = Math.min(1, Math.max(0.02, ((name.length - 2) / 6) ** 2));
  return name.length >= 8 && /[a-z0-9][A-Z]|[A-Za-z0-9]_[A-Za-z]/.test(name) ? base * 2 : base;
}

/** The key a definition is referred to by: Ruby's `valid?`/`name=` are mentioned as `valid`/`name`. */
function keyOf(name: string): string {
  return name.replace(/[?!=]$/, '');
}

const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

export function rankFiles(input: FileSymbols[]): RepoMapFile[] {
  const files = [...input].sort(byPath);
  const count = files.length;
  if (count === 0) return [];

  // Who defines what, with each definer's weight.
  const definers = new Map<string, { file: number; weight: number }[]>();
  const ownNames: Set<string>[] = [];
  files.forEach((file, index) => {
    const own = new Set<string>();
    for (const definition of file.definitions) {
      const key = keyOf(definition.name);
      if (own.has(key)) continue;
      own.add(key);
      if (key.length < 2 || UNLINKED.has(key)) continue;
      let list = definers.get(key);
      if (!list) definers.set(key, (list = []));
      list.push({ file: index, weight: definition.exported ? 1 : PRIVATE_WEIGHT });
    }
    ownNames.push(own);
  });

  // Which defined identifiers each file mentions (not its own), and how many files mention each.
  const mentions: string[][] = [];
  const mentionedBy = new Map<string, number>();
  for (let index = 0; index < count; index++) {
    const found: string[] = [];
    const own = ownNames[index]!;
    const references = files[index]!.references;
    if (references) {
      for (const token of references.split(' ')) {
        if (!definers.has(token) || own.has(token)) continue;
        found.push(token);
        mentionedBy.set(token, (mentionedBy.get(token) ?? 0) + 1);
      }
    }
    mentions.push(found);
  }

  // Each identifier's vote, split between its definers.
  const shares = new Map<string, { file: number; share: number }[]>();
  for (const [name, list] of definers) {
    const df = mentionedBy.get(name);
    if (df === undefined) continue;
    const vote = specificity(name) * (1 + Math.log((count + 1) / (df + 1))) / Math.sqrt(list.length);
    const total = list.reduce((sum, definer) => sum + definer.weight, 0);
    shares.set(name, list.map((definer) => ({ file: definer.file, share: (vote * definer.weight) / total })));
  }

  // Out-edges, normalised per file.
  const targets: Int32Array[] = [];
  const weights: Float64Array[] = [];
  for (let index = 0; index < count; index++) {
    const edges = new Map<number, number>();
    for (const name of mentions[index]!) {
      for (const { file, share } of shares.get(name)!) edges.set(file, (edges.get(file) ?? 0) + share);
    }
    let total = 0;
    for (const weight of edges.values()) total += weight;
    total = Math.max(total, FULL_EVIDENCE);
    targets.push(Int32Array.from(edges.keys()));
    weights.push(Float64Array.from(edges.values(), (weight) => weight / total));
  }

  const roleWeights = files.map((file) => ROLE_WEIGHT[roleOf(file.path, file.generated)]);
  const roleTotal = roleWeights.reduce((sum, weight) => sum + weight, 0);
  const teleport = Float64Array.from(roleWeights, (weight) => weight / roleTotal);
  const rank = pageRank(targets, weights, teleport);

  const ranked = files.map((file, index) => ({
    path: file.path,
    score: Math.round(rank[index]! * roleWeights[index]! * count * 1e6) / 1e6,
    symbols: file.definitions.filter((definition) => definition.exported).map((definition) => definition.name),
  }));
  return ranked.sort((a, b) => b.score - a.score || byPath(a, b));
}

/**
 * Power iteration. A file's out-weights sum to at most 1; what is missing (all of it for a file
 * without out-edges) goes back through the teleport vector.
 */
function pageRank(targets: Int32Array[], weights: Float64Array[], teleport: Float64Array): Float64Array {
  const count = teleport.length;
  let rank = Float64Array.from(teleport);
  let next = new Float64Array(count);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    let dangling = 0;
    next.fill(0);
    for (let from = 0; from < count; from++) {
      const to = targets[from]!;
      const share = weights[from]!;
      const mass = rank[from]! * DAMPING;
      let passed = 0;
      for (let edge = 0; edge < to.length; edge++) {
        next[to[edge]!]! += mass * share[edge]!;
        passed += share[edge]!;
      }
      dangling += rank[from]! * (1 - passed);
    }
    let change = 0;
    for (let index = 0; index < count; index++) {
      const value = next[index]! + teleport[index]! * (1 - DAMPING + DAMPING * dangling);
      change += Math.abs(value - rank[index]!);
      next[index] = value;
    }
    [rank, next] = [next, rank];
    if (change < TOLERANCE) break;
  }
  return rank;
}
