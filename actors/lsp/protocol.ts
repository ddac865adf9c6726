import { actorAddress, type Protocol } from '../../runtime/actor.js';

// A language server's actor (`actors/lsp/actor.ts`): a child process that runs one language
// server for the session and answers what an edit changed in its diagnostics. The agent loop
// asks it through {@link Diagnostics} (`diagnostics.ts`), never directly.

export type LspRequest =
  /**
   * The file is about to change (an edit or write is about to run): open it (or bring the
   * server's copy up to date) with its text now, so the errors already there are known.
   */
  | {
      type: 'sync';
      path: string;
      text: string;
      /** Set for a file synced because it imports this one: its new errors after a change of that file count too. */
      importerOf?: string;
    }
  /**
   * The file now holds `text`: the errors it has that it did not have at its last sync (all of
   * them when `fresh`: the file was just created), waiting at most `waitMs`.
   */
  | { type: 'check'; path: string; text: string; waitMs: number; fresh?: boolean };

/** One error as the model is told it. */
export interface LspDiagnostic {
  /** Absolute path. */
  path: string;
  /** 1-based. */
  line: number;
  column: number;
  message: string;
  /** `TS2322`, `reportArgumentType`… when the server gives one. */
  code?: string;
}

export interface LspCheck {
  /** Errors the change introduced: in the file, and in other open files (importers) that changed with it. */
  introduced: LspDiagnostic[];
  /**
   * `checked`: the server answered within the wait; `late`: it did not (nothing can be said);
   * `unknown-before`: it answered, but the errors before the change were not known.
   */
  state: 'checked' | 'late' | 'unknown-before';
}

export interface LspProtocol extends Protocol<LspRequest> {
  replies: { sync: null; check: LspCheck };
}

/** The languages reika knows a server for. */
export type LspLanguage = 'typescript' | 'python' | 'go' | 'rust';

/** The actor of the `n`-th server started for `language` in this session (`/cd` starts others). */
export function lspAddress(language: LspLanguage, n = 1) {
  return actorAddress<LspProtocol>(`lsp/${language}${n > 1 ? `-${n}` : ''}`);
}
