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
 *   count 4× private ones; a name defined only privately keeps that lower weight), and damped by
 *   1/√(definers) so names defined all over carry little.
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
/** References shorter than this are not collected (`workers/extract.ts`), so such names link nothing. */
const MIN_REFERENCE_LENGTH = 4;
/** Names that never stand for one definition (the anonymous `export default`). */
const UNLINKED = new Set(['default']);

export type FileRole = 'core' | 'test' | 'generated';

const ROLE_WEIGHT: Record<FileRole, number> = { core: 1, test: 0.1, generated: 0.05 };

/** Tests, and the other code around the core that nothing in it uses: benches and examples. */
const TEST_DIR = /(?:^|\/)(?:tests?|__tests__|specs?|testing|testdata|test-?data|fixtures|__fixtures__|__mocks__|e2e|bench|benches|benchmarks?|examples?)\//i;
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

const words = (list: string): string[] => (list === '' ? [] : list.split(' '));

/** Identifiers as small integers, with who defines each. */
class Definers {
  readonly ids = new Map<string, number>();
  readonly keys: string[] = [];
  readonly files: number[][] = [];
  readonly weights: number[][] = [];

  /** Records that `file` defines `name`; returns its id, or -1 for a name that links nothing. */
  add(name: string, file: number, weight: number): number {
    const key = keyOf(name);
    if (key.length < MIN_REFERENCE_LENGTH || UNLINKED.has(key)) return -1;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.files.length;
      this.ids.set(key, id);
      this.keys.push(key);
      this.files.push([]);
      this.weights.push([]);
    }
    const files = this.files[id]!;
    if (files[files.length - 1] !== file) {
      files.push(file);
      this.weights[id]!.push(weight);
    } else if (weight > this.weights[id]![files.length - 1]!) {
      this.weights[id]![files.length - 1] = weight;
    }
    return id;
  }
}

export function rankFiles(input: FileSymbols[]): RepoMapFile[] {
  const files = [...input].sort(byPath);
  const count = files.length;
  if (count === 0) return [];

  const definers = new Definers();
  const own: number[][] = files.map((file, index) => {
    const ids: number[] = [];
    for (const name of words(file.exported)) ids.push(definers.add(name, index, 1));
    for (const name of words(file.internal)) ids.push(definers.add(name, index, PRIVATE_WEIGHT));
    return ids;
  });
  const names = definers.ids.size;

  // Which defined identifiers each file mentions (not its own), and how many files mention each.
  const ownMark = new Int32Array(names);
  const mentionedBy = new Int32Array(names);
  const mentions: Int32Array[] = [];
  const found: number[] = [];
  for (let index = 0; index < count; index++) {
    for (const id of own[index]!) if (id >= 0) ownMark[id] = index + 1;
    found.length = 0;
    for (const token of words(files[index]!.references)) {
      const id = definers.ids.get(token);
      if (id === undefined || ownMark[id] === index + 1) continue;
      found.push(id);
      mentionedBy[id]!++;
    }
    mentions.push(Int32Array.from(found));
  }

  // Each identifier's vote, to be split between its definers by their weights.
  const votes = new Float64Array(names);
  for (let id = 0; id < names; id++) {
    if (mentionedBy[id] === 0) continue;
    const weights = definers.weights[id]!;
    let total = 0;
    for (const weight of weights) total += weight;
    // Split by weight; a name only privately defined keeps its lower weight (weaker evidence).
    votes[id] = (specificity(definers.keys[id]!) * (1 + Math.log((count + 1) / (mentionedBy[id]! + 1)))) / Math.sqrt(weights.length) / Math.max(total, 1);
  }

  // Out-edges, normalised per file.
  const scratch = new Float64Array(count);
  const touched: number[] = [];
  const targets: Int32Array[] = [];
  const shares: Float64Array[] = [];
  for (let index = 0; index < count; index++) {
    touched.length = 0;
    for (const id of mentions[index]!) {
      const to = definers.files[id]!;
      const weights = definers.weights[id]!;
      for (let k = 0; k < to.length; k++) {
        const file = to[k]!;
        if (scratch[file] === 0) touched.push(file);
        scratch[file]! += votes[id]! * weights[k]!;
      }
    }
    let total = 0;
    for (const file of touched) total += scratch[file]!;
    total = Math.max(total, FULL_EVIDENCE);
    targets.push(Int32Array.from(touched));
    shares.push(Float64Array.from(touched, (file) => scratch[file]! / total));
    for (const file of touched) scratch[file] = 0;
  }

  const roleWeights = files.map((file) => ROLE_WEIGHT[roleOf(file.path, file.generated)]);
  const roleTotal = roleWeights.reduce((sum, weight) => sum + weight, 0);
  const teleport = Float64Array.from(roleWeights, (weight) => weight / roleTotal);
  const rank = pageRank(targets, shares, teleport);

  const ranked = files.map((file, index) => ({
    path: file.path,
    score: Math.round(rank[index]! * roleWeights[index]! * count * 1e6) / 1e6,
    symbols: words(file.exported),
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
