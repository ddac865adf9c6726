import { appendFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

// Small records reika keeps in its state folder as one JSON value a line (the prompt history, the
// session ids given to editors): appended by each process as it goes, so two processes writing one
// file both keep what they wrote, read back whole, and rewritten compact now and then.

/** Each line of `path` parsed, in order; a torn line (a crash mid-append) is skipped; none when the file cannot be read. */
export function readJsonLines(path: string): unknown[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  const values: unknown[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      values.push(JSON.parse(line));
    } catch {
      // torn: skipped
    }
  }
  return values;
}

/** Appends one line of JSON text, the folder made if need be, both private to the user; throws what the file system throws. */
export function appendJsonLine(path: string, json: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  appendFileSync(path, `${json}\n`, { mode: 0o600 });
}

/** Replaces the file by `values`, one a line, at once (a temporary file renamed over it); throws what the file system throws. */
export function rewriteJsonLines(path: string, values: readonly unknown[]): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, values.map((value) => `${JSON.stringify(value)}\n`).join(''), { mode: 0o600 });
  renameSync(temp, path);
}
