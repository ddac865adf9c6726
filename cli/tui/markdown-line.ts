import type { Style } from './style.js';

/**
 * Light Markdown for one finished line of the answer: headings and `**bold**` in bold, `code` in
 * cyan, fences dimmed (their contents left exactly as written). Without colour the line is left
 * as the model wrote it, so nothing is lost.
 */
export class MarkdownLines {
  private inFence = false;

  constructor(private readonly style: Style) {}

  format(line: string): string {
    const { style } = this;
    if (!style.color) return line;
    if (/^\s*(```|~~~)/.test(line)) {
      this.inFence = !this.inFence;
      return style.dim(line);
    }
    if (this.inFence) return line;
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) return style.bold(heading[2]!);
    return line
      .replace(/`([^`]+)`/g, (_, code: string) => style.cyan(code))
      .replace(/\*\*([^*]+)\*\*/g, (_, text: string) => style.bold(text));
  }

  /** A new answer starts outside any fence. */
  reset(): void {
    this.inFence = false;
  }
}
