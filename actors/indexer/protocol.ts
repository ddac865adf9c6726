import { actorAddress, type Protocol } from '../../runtime/actor.js';
import type { ScanCaps } from './caps.js';

// The indexer actor's contract. The actor is a front in the main thread for a piscina pool of
// worker threads (`workers/`); the main thread never walks the tree.

/** Which cap stopped the scan early. */
export type CapName = 'files' | 'map-files' | 'map-directories' | 'gitignore-directories' | 'directories';

export interface FileIndex {
  /** Absolute root that was scanned. */
  root: string;
  /** Relative, `/`-separated, breadth-first order (shallow first), ≤ 10,000. */
  paths: string[];
  /** Caps that were hit, empty when the scan saw the whole tree. */
  capped: CapName[];
  /**
   * Repo-map candidates: source files by extension (`map/source-files.ts`), breadth-first,
   * ≤ 3,000 from the first 4,000 folders. May include files past the index cap.
   */
  mapCandidates?: string[];
  stats: { directories: number; files: number; ignored: number; skipped: number; ms: number };
}

export interface RepoMapFile {
  path: string;
  score: number;
  symbols: string[];
}

export interface RepoMap {
  /** The map as it goes into the system prompt: one `path: name, name, …` line per file. */
  text: string;
  /** All ranked files, best first (also those cut by the budget). */
  files: RepoMapFile[];
  /** Files left out by the budget. */
  omitted: number;
  budgetTokens: number;
}

export type IndexerRequest =
  | {
      type: 'scan';
      root: string;
      /** Smaller caps, for tests. */
      caps?: Partial<ScanCaps>;
      /**
       * The repo map of this scan's map candidates will be asked next: the scan's task goes on to
       * rank it, and a repo-map request for exactly `mapCandidates` is answered from that.
       */
      prepareMap?: boolean;
    }
  | { type: 'repo-map'; root: string; paths: string[]; budgetTokens: number };

export interface IndexerProtocol extends Protocol<IndexerRequest> {
  replies: { scan: FileIndex; 'repo-map': RepoMap };
}

/** The indexer actor (main thread, the front of its worker pool). */
export const INDEXER = actorAddress<IndexerProtocol>('indexer');
