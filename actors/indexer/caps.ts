// The scan's caps (SPEC §2, "Breadth-first scan within caps"). Past a cap the result is
// shallow-first and names the cap in `FileIndex.capped`.

/** The file index keeps at most this many paths. */
export const MAX_INDEX_PATHS = 10_000;
/** The repo map reads at most this many source files… */
export const MAX_MAP_FILES = 3_000;
/** …found in the first this-many folders of the breadth-first walk. */
export const MAX_MAP_DIRECTORIES = 4_000;
/** `.gitignore` files are looked for in the first this-many folders only. */
export const MAX_GITIGNORE_DIRECTORIES = 2_000;
/**
 * A guard against trees of nearly empty folders (a million of them would otherwise be walked to
 * fill the index): the walk never reads more folders than this.
 */
export const MAX_SCAN_DIRECTORIES = 50_000;

/** All caps of one scan; tests pass smaller ones. */
export interface ScanCaps {
  indexPaths: number;
  mapFiles: number;
  mapDirectories: number;
  gitignoreDirectories: number;
  scanDirectories: number;
}

export const DEFAULT_CAPS: Readonly<ScanCaps> = Object.freeze({
  indexPaths: MAX_INDEX_PATHS,
  mapFiles: MAX_MAP_FILES,
  mapDirectories: MAX_MAP_DIRECTORIES,
  gitignoreDirectories: MAX_GITIGNORE_DIRECTORIES,
  scanDirectories: MAX_SCAN_DIRECTORIES,
});
