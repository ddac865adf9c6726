import type { RepoMapFile } from '../protocol.js';
import type { FileSymbols } from './extract.js';
import { ROLE_WEIGHT, roleOf } from './file-role.js';
import { hashRange, HashIds, MIN_IDENTIFIER_LENGTH } from './identifiers.js';
import { importEdges } from './imports.js';

// Ranks the repo map's files, in an indexer worker: a reference graph (file A mentions an
// identifier that file B defines → edge A→B; file A imports file B → a strong edge A→B) scored by
// personalised PageRank.
//
// An import (`Language.imports`, resolved by `ModuleIndex` against the mapped files' paths) weighs
// IMPORT_VOTE: for the languages with import rules the graph is then close to the one a parser
// computes (measured against the TypeScript compiler's and Python's `ast` import graphs on
// excalidraw, vuejs/core and scrapy: 98–100% of their edges, 96–99.9% of ours theirs), and the
// identifier edges below order what imports leave open, and carry the languages without them.
// For those languages the score also counts a file's importers (IMPORTERS_WEIGHT).
//
// An edge's weight is the sum over the identifiers behind it of:
// - specificity: ((length − 2) / 6)², at most 1, so `get` weighs 1/36 of `loadUser`; compound
//   names (`parseConfig`, `read_file`) of 8+ characters count twice;
// - rarity: 1 + ln((N+1)/(df+1)), df the number of files that mention the identifier, so a word
//   every file says (`name`, `value`) carries little;
// - the definer's share: split between the files defining the identifier (exported definitions
//   count 4× private ones; a name defined only privately keeps that lower weight), and damped by
//   1/√(definers) so names defined all over carry little.
// A file that defines an identifier itself is taken to mean its own. Tests, generated and vendored
// files get a tenth of the teleport mass (and of their final score) so they cannot crowd out the
// core. The files the project's AGENTS.md names (`mentions.ts`) share MENTIONED_SHARE of the
// teleport mass, so they and what they use rank higher (Aider's personalisation). Scores are
// quantised before sorting, ties go by path: the same files give the same order.

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
/** The name that never stands for one definition (the anonymous `export default`). */
const UNLINKED = 'default';
/**
 * What one import weighs (split between the files it may name): an import says for sure what a
 * shared name only suggests, so it outweighs dozens of mentions.
 */
const IMPORT_VOTE = 64;
/**
 * How much a file's importers count beside its PageRank, for files of languages with import
 * rules: score = (rank + IMPORTERS_WEIGHT × importers / mean importers) / (1 + IMPORTERS_WEIGHT),
 * both terms averaging 1. PageRank alone favours the deep foundations a barrel re-exports (each
 * imported once); the count of importers, the files many others use directly. Measured against
 * the real import graphs, the blend keeps most of PageRank's agreement and gains much of the
 * importer count's (see the commit that set it).
 */
const IMPORTERS_WEIGHT = 1;
/**
 * The part of the teleport mass the files AGENTS.md names share (by their role weights), when it
 * names any: half the random walks start again at one of them.
 */
const MENTIONED_SHARE = 0.5;

/** The pool task's input: the extracted files, and the paths among them AGENTS.md names. */
export interface RankTask {
  files: FileSymbols[];
  mentioned: readonly string[];
}

function specificity(name: string): number {
  const base = Math.min(1, Math.max(0.02, ((name.length - 2) / 6) ** 2));
  return name.length >= 8 && /[a-z0-9][A-Z]|[A-Za-z0-9]_[A-Za-z]/.test(name) ? base * 2 : base;
}

/** The end of the key a definition is referred to by: Ruby's `valid?`/`name=` are mentioned as `valid`/`name`. */
function keyEnd(list: string, start: number, end: number): number {
  const last = list.charCodeAt(end - 1);
  return end > start && (last === 63 || last === 33 || last === 61) ? end - 1 : end;
}

const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

const words = (list: string): string[] => (list === '' ? [] : list.split(' '));

/**
 * Who defines each name. Names become small ids (by hash, as mentions are matched); a name's
 * definers are rows `start[id]` to `end[id]` of `file`/`weight`, in file order, one per file.
 */
interface DefinerTable {
  ids: HashIds;
  keys: string[];
  start: Int32Array;
  end: Int32Array;
  file: Int32Array;
  weight: Float64Array;
  /** The ids file i defines are `own[ownStart[i]]` up to `own[ownStart[i + 1]]`. */
  ownStart: Int32Array;
  own: Int32Array;
}

function definerTable(files: FileSymbols[]): DefinerTable {
  const ids = new HashIds();
  const keys: string[] = [];
  // Rows in typed arrays grown by doubling: their memory is outside the young generation, which
  // a plain array's growth fills (tens of thousands of rows, cold, in the startup thread).
  let rowId = new Int32Array(Math.max(1024, files.length * 8));
  let rowFile = new Int32Array(rowId.length);
  let rowWeight = new Float64Array(rowId.length);
  let rows = 0;
  const ownStart = new Int32Array(files.length + 1);
  // The names of a space-separated list, read in place: no array of words, no substring per name.
  const addAll = (list: string, file: number, weight: number) => {
    for (let at = 0; at < list.length; ) {
      let end = list.indexOf(' ', at);
      if (end === -1) end = list.length;
      const keyStop = keyEnd(list, at, end);
      // Shorter names are never collected as mentions, so they link nothing.
      if (keyStop - at >= MIN_IDENTIFIER_LENGTH && !(keyStop - at === UNLINKED.length && list.startsWith(UNLINKED, at))) {
        const id = ids.add(hashRange(list, at, keyStop));
        if (id === keys.length) keys.push(list.slice(at, keyStop));
        if (rows === rowId.length) {
          const grownId = new Int32Array(rows * 2);
          const grownFile = new Int32Array(rows * 2);
          const grownWeight = new Float64Array(rows * 2);
          grownId.set(rowId);
          grownFile.set(rowFile);
          grownWeight.set(rowWeight);
          rowId = grownId;
          rowFile = grownFile;
          rowWeight = grownWeight;
        }
        rowId[rows] = id;
        rowFile[rows] = file;
        rowWeight[rows++] = weight;
      }
      at = end + 1;
    }
  };
  for (let index = 0; index < files.length; index++) {
    const file = files[index]!;
    addAll(file.exported, index, 1);
    addAll(file.internal, index, PRIVATE_WEIGHT);
    ownStart[index + 1] = rows;
  }
  // Each row is one of its file's own names, in file order.
  const own = rowId.slice(0, rows);
  // Counting sort of the rows by id; rows of one id stay in file order.
  const names = keys.length;
  const start = new Int32Array(names + 1);
  for (let row = 0; row < own.length; row++) start[own[row]! + 1]!++;
  for (let id = 0; id < names; id++) start[id + 1]! += start[id]!;
  const end = start.slice(0, names);
  const file = new Int32Array(own.length);
  const weight = new Float64Array(own.length);
  for (let row = 0; row < own.length; row++) {
    const id = own[row]!;
    const at = end[id]!;
    if (at > start[id]! && file[at - 1] === rowFile[row]) {
      // The same name twice in one file (exported and private): the stronger counts.
      weight[at - 1] = Math.max(weight[at - 1]!, rowWeight[row]!);
      continue;
    }
    file[at] = rowFile[row]!;
    weight[at] = rowWeight[row]!;
    end[id] = at + 1;
  }
  return { ids, keys, start, end, file, weight, ownStart, own };
}

export function rankFiles(input: FileSymbols[] | RankTask): RepoMapFile[] {
  const files = [...(Array.isArray(input) ? input : input.files)].sort(byPath);
  const named = Array.isArray(input) ? [] : input.mentioned;
  const count = files.length;
  if (count === 0) return [];

  const definers = definerTable(files);
  const names = definers.keys.length;

  // Which defined identifiers each file mentions (not its own), and how many files mention each:
  // file i's are `mention[mentionStart[i]]` up to `mention[mentionStart[i + 1]]`.
  const ownMark = new Int32Array(names);
  const mentionedBy = new Int32Array(names);
  const mentionStart = new Int32Array(count + 1);
  let mention = new Int32Array(1024);
  let mentioned = 0;
  const { ids, own, ownStart } = definers;
  for (let index = 0; index < count; index++) {
    for (let row = ownStart[index]!, end = ownStart[index + 1]!; row < end; row++) ownMark[own[row]!] = index + 1;
    const references = files[index]!.references;
    if (mentioned + references.length > mention.length) {
      const grown = new Int32Array(Math.max(mention.length * 2, mentioned + references.length));
      grown.set(mention.subarray(0, mentioned));
      mention = grown;
    }
    for (let k = 0; k < references.length; k++) {
      const id = ids.get(references[k]!);
      if (id === -1 || ownMark[id] === index + 1) continue;
      mention[mentioned++] = id;
      mentionedBy[id]!++;
    }
    mentionStart[index + 1] = mentioned;
  }

  // Each identifier's vote, to be split between its definers by their weights.
  const votes = new Float64Array(names);
  for (let id = 0; id < names; id++) {
    if (mentionedBy[id] === 0) continue;
    let total = 0;
    for (let row = definers.start[id]!; row < definers.end[id]!; row++) total += definers.weight[row]!;
    const definerCount = definers.end[id]! - definers.start[id]!;
    // Split by weight; a name only privately defined keeps its lower weight (weaker evidence).
    votes[id] = (specificity(definers.keys[id]!) * (1 + Math.log((count + 1) / (mentionedBy[id]! + 1)))) / Math.sqrt(definerCount) / Math.max(total, 1);
  }
  // Each definer row's part of its name's vote, once per row rather than once per mention (the
  // same product: the edge sums below come out bit for bit the same).
  const { start: definerStart, end: definerEnd, file: definerFile } = definers;
  const rowVote = new Float64Array(definerFile.length);
  for (let id = 0; id < names; id++) {
    if (mentionedBy[id] === 0) continue;
    for (let row = definerStart[id]!; row < definerEnd[id]!; row++) rowVote[row] = votes[id]! * definers.weight[row]!;
  }

  const roles = files.map((file) => roleOf(file.path, file.generated));
  const roleWeights = roles.map((role) => ROLE_WEIGHT[role]);
  const imported = importEdges(files);
  // Per file, how many files import it (an import naming several files counts for each a share).
  // Tests count as importers of the core they use, but a test helper every test imports is no
  // more than a test itself: one test importing another counts as little as a test weighs.
  const importers = new Float64Array(count);

  // Out-edges, normalised per file, in one flat list: file i's edges are `edgeStart[i]` up to
  // `edgeStart[i + 1]` (a few thousand small typed arrays cost milliseconds to allocate cold).
  const scratch = new Float64Array(count);
  const touched: number[] = [];
  const edgeStart = new Int32Array(count + 1);
  let targets = new Int32Array(Math.max(1024, count * 4));
  let shares = new Float64Array(targets.length);
  let edges = 0;
  for (let index = 0; index < count; index++) {
    touched.length = 0;
    for (let k = mentionStart[index]!, end = mentionStart[index + 1]!; k < end; k++) {
      const id = mention[k]!;
      for (let row = definerStart[id]!, stop = definerEnd[id]!; row < stop; row++) {
        const file = definerFile[row]!;
        if (scratch[file] === 0) touched.push(file);
        scratch[file]! += rowVote[row]!;
      }
    }
    const testing = roles[index] === 'test';
    for (let row = imported.start[index]!, end = imported.start[index + 1]!; row < end; row++) {
      const file = imported.file[row]!;
      const share = imported.share[row]!;
      if (scratch[file] === 0) touched.push(file);
      scratch[file]! += IMPORT_VOTE * share;
      importers[file]! += Math.min(1, share) * (testing && roles[file] === 'test' ? ROLE_WEIGHT.test : 1);
    }
    let total = 0;
    for (let k = 0; k < touched.length; k++) total += scratch[touched[k]!]!;
    total = Math.max(total, FULL_EVIDENCE);
    if (edges + touched.length > targets.length) {
      const size = Math.max(targets.length * 2, edges + touched.length);
      const grownTargets = new Int32Array(size);
      const grownShares = new Float64Array(size);
      grownTargets.set(targets);
      grownShares.set(shares);
      targets = grownTargets;
      shares = grownShares;
    }
    for (let k = 0; k < touched.length; k++) {
      const file = touched[k]!;
      targets[edges] = file;
      shares[edges++] = scratch[file]! / total;
      scratch[file] = 0;
    }
    edgeStart[index + 1] = edges;
  }

  const roleTotal = roleWeights.reduce((sum, weight) => sum + weight, 0);
  const teleport = Float64Array.from(roleWeights, (weight) => weight / roleTotal);
  if (named.length > 0) personalise(teleport, files, roleWeights, named);
  const rank = pageRank(edgeStart, targets, shares, teleport);

  // The importers' mean over the files whose language has import rules: only those can have any.
  let importing = 0;
  let importerTotal = 0;
  files.forEach((file, index) => {
    if (file.imports === undefined) return;
    importing++;
    importerTotal += importers[index]!;
  });
  const meanImporters = importerTotal > 0 ? importerTotal / importing : 0;
  const ranked = files.map((file, index) => {
    let score = rank[index]! * count;
    if (file.imports !== undefined && meanImporters > 0) score = (score + (IMPORTERS_WEIGHT * importers[index]!) / meanImporters) / (1 + IMPORTERS_WEIGHT);
    return { path: file.path, score: Math.round(score * roleWeights[index]! * 1e6) / 1e6, symbols: words(file.exported) };
  });
  return ranked.sort((a, b) => b.score - a.score || byPath(a, b));
}

/** Gives MENTIONED_SHARE of the teleport mass to the `mentioned` files (by role weight), the rest as it was. */
function personalise(teleport: Float64Array, files: readonly FileSymbols[], roleWeights: readonly number[], mentioned: readonly string[]): void {
  const named = new Set(mentioned);
  let namedTotal = 0;
  for (let index = 0; index < files.length; index++) if (named.has(files[index]!.path)) namedTotal += roleWeights[index]!;
  if (namedTotal === 0) return;
  for (let index = 0; index < files.length; index++) {
    const personal = named.has(files[index]!.path) ? roleWeights[index]! / namedTotal : 0;
    teleport[index] = (1 - MENTIONED_SHARE) * teleport[index]! + MENTIONED_SHARE * personal;
  }
}

/**
 * Power iteration. A file's out-weights sum to at most 1; what is missing (all of it for a file
 * without out-edges) goes back through the teleport vector.
 */
function pageRank(edgeStart: Int32Array, targets: Int32Array, weights: Float64Array, teleport: Float64Array): Float64Array {
  const count = teleport.length;
  // What each file passes on: the same sum, in the same order, as each iteration would make it.
  const kept = new Float64Array(count);
  for (let from = 0; from < count; from++) {
    let passed = 0;
    for (let edge = edgeStart[from]!, end = edgeStart[from + 1]!; edge < end; edge++) passed += weights[edge]!;
    kept[from] = 1 - passed;
  }
  let rank = Float64Array.from(teleport);
  let next = new Float64Array(count);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    let dangling = 0;
    next.fill(0);
    for (let from = 0; from < count; from++) {
      const mass = rank[from]! * DAMPING;
      for (let edge = edgeStart[from]!, end = edgeStart[from + 1]!; edge < end; edge++) next[targets[edge]!]! += mass * weights[edge]!;
      dangling += rank[from]! * kept[from]!;
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
