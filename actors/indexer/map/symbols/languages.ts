import c from './c.js';
import csharp from './csharp.js';
import go from './go.js';
import java from './java.js';
import kotlin from './kotlin.js';
import type { Language } from './language.js';
import lua from './lua.js';
import php from './php.js';
import python from './python.js';
import ruby from './ruby.js';
import rust from './rust.js';
import shell from './shell.js';
import swift from './swift.js';
import typescript from './typescript.js';

/**
 * The symbol table: every language the repo map reads. Adding a language is adding its entry
 * here (and a fixture test in `test/actors/indexer/map/symbols/`).
 */
export const LANGUAGES: readonly Language[] = [typescript, python, go, rust, java, csharp, kotlin, swift, c, ruby, php, lua, shell];

const byExtension = new Map<string, Language>();
for (const language of LANGUAGES) {
  for (const extension of language.extensions) {
    if (byExtension.has(extension)) throw new Error(`two languages claim ${extension}`);
    byExtension.set(extension, language);
  }
}

/** Lower-cased extension with its dot (`src/a.TS` → `.ts`), or '' when the name has none. */
export function extensionOf(path: string): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash + 1 ? path.slice(dot).toLowerCase() : '';
}

/** The language of a path by its extension, if the repo map reads it. */
export function languageOf(path: string): Language | undefined {
  return byExtension.get(extensionOf(path));
}

/** The language of a lower-cased extension with its dot (`extensionOf`). */
export function languageOfExtension(extension: string): Language | undefined {
  return byExtension.get(extension);
}

/** True for files the repo map reads (the scan's map cap counts these). */
export function isMapSource(path: string): boolean {
  return byExtension.has(extensionOf(path));
}
