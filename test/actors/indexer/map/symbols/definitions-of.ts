import { findDefinitions } from '../../../../../actors/indexer/map/symbols/definitions.js';
import { extensionOf, languageOf } from '../../../../../actors/indexer/map/symbols/languages.js';

/**
 * Fixture helper: the definitions the table finds in `text` as if it were the file at `path`,
 * one string each: `+ name kind` when exported, `- name kind` when private.
 */
export function definitionsOf(path: string, text: string): string[] {
  const language = languageOf(path);
  if (!language) throw new Error(`no language for ${path}`);
  return findDefinitions(language, text, { extension: extensionOf(path) }).map(
    (definition) => `${definition.exported ? '+' : '-'} ${definition.name} ${definition.kind}`,
  );
}
