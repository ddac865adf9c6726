import { join } from 'node:path';
import { projectDir } from '../actors/transcript/store-paths.js';
import { appendJsonLine, readJsonLines, rewriteJsonLines } from './json-lines.js';

/** Entries kept per project. */
export const HISTORY_LIMIT = 500;

/**
 * The prompt's ↑/↓ history across runs, per project root: `history.jsonl` beside the project's
 * transcripts, one JSON string per line, appended as each line is sent (two reika processes in one
 * folder both append; neither loses the other's). Read back deduplicated (a repeat moves to the
 * newest place) and capped; the file is rewritten compact once it holds twice the cap. The
 * configured API keys are never written.
 */
export class PromptHistory {
  readonly file: string;

  constructor(
    root: string,
    private readonly secrets: readonly string[] = [],
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.file = join(projectDir(root, env), 'history.jsonl');
  }

  /** Oldest first, newest last, each once, at most {@link HISTORY_LIMIT}. */
  entries(): string[] {
    const lines = this.lines();
    const entries = dedupe(lines);
    if (lines.length > 2 * HISTORY_LIMIT) this.rewrite(entries);
    return entries;
  }

  add(text: string): void {
    if (text.trim() === '') return;
    let line = JSON.stringify(text);
    for (const secret of this.secrets) if (secret.length >= 8 && line.includes(secret)) line = line.split(secret).join('[redacted]');
    try {
      appendJsonLine(this.file, line);
    } catch {
      // No history is better than a prompt that fails.
    }
  }

  private lines(): string[] {
    return readJsonLines(this.file).filter((value): value is string => typeof value === 'string' && value.trim() !== '');
  }

  private rewrite(entries: string[]): void {
    try {
      rewriteJsonLines(this.file, entries);
    } catch {
      // kept as it was
    }
  }
}

/** Each entry once, at its newest place; the newest {@link HISTORY_LIMIT}. */
function dedupe(lines: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = lines.length - 1; i >= 0 && out.length < HISTORY_LIMIT; i--) {
    const line = lines[i]!;
    if (seen.has(line)) continue;
    seen.add(line);
    out.push(line);
  }
  return out.reverse();
}
