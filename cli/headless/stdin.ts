import { fstatSync } from 'node:fs';

/** Most bytes of piped stdin attached after a `-p` prompt; the rest is cut with a note. */
export const STDIN_MAX_BYTES = 100_000;
/** A pipe that has sent nothing for this long (and is not closed) is not waited for further. */
export const STDIN_SILENT_MS = 3_000;

export interface PipedInput {
  /** The bytes read (at most {@link STDIN_MAX_BYTES} are kept). */
  bytes: Buffer;
  /** How many bytes arrived in all. */
  total: number;
  /** True when nothing came within {@link STDIN_SILENT_MS} and the pipe stayed open. */
  silent: boolean;
}

/**
 * Reads stdin when something is piped or redirected into it (`git diff | reika -p "review this"`),
 * to EOF. A terminal, or a pipe that sends nothing for {@link STDIN_SILENT_MS} without closing (a
 * script that leaves stdin open), gives no input; once a first byte came, it waits for the end.
 */
export async function readPipedStdin(stdin: NodeJS.ReadStream = process.stdin): Promise<PipedInput | undefined> {
  if (stdin.isTTY) return undefined;
  try {
    const info = fstatSync(0);
    if (info.isCharacterDevice()) return undefined; // /dev/null and other devices
  } catch {
    return undefined;
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let total = 0;
    const done = (silent: boolean) => {
      clearTimeout(timer);
      stdin.off('data', onData).off('end', onEnd).off('error', onEnd);
      stdin.pause();
      resolve({ bytes: Buffer.concat(chunks), total, silent });
    };
    const onData = (chunk: Buffer) => {
      clearTimeout(timer);
      total += chunk.length;
      if (kept < STDIN_MAX_BYTES) {
        const part = chunk.subarray(0, STDIN_MAX_BYTES - kept);
        chunks.push(part);
        kept += part.length;
      }
    };
    const onEnd = () => done(false);
    const timer = setTimeout(() => done(true), STDIN_SILENT_MS);
    stdin.on('data', onData).once('end', onEnd).once('error', onEnd);
  });
}

/** Why piped bytes cannot go to the model as text, or undefined when they can. */
export function binaryProblem(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return 'stdin holds binary data (NUL bytes): not sent; pipe text';
  try {
    // `stream`: a character cut at the end of the head is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    return 'stdin is not UTF-8 text: not sent; pipe text';
  }
  return undefined;
}

/** The message sent: the prompt, then the piped text as an attached block (cut with a note). */
export function withPipedInput(prompt: string, input: PipedInput): string {
  let content = input.bytes.toString('utf8');
  if (input.total > input.bytes.length) {
    content += `${content.endsWith('\n') ? '' : '\n'}[cut: stdin had ${input.total} bytes, the first ${input.bytes.length} are attached]`;
  }
  return `${prompt}\n\n<stdin>\n${content}${content.endsWith('\n') ? '' : '\n'}</stdin>`;
}

/** One line for stderr when the piped input was cut. */
export function cutNote(input: PipedInput): string | undefined {
  if (input.total <= input.bytes.length) return undefined;
  return `stdin is ${input.total} bytes: only the first ${input.bytes.length} are attached`;
}
