// Names, paths, commands and summaries from tools, made safe to print on a terminal: a control
// character (C0, DEL, C1) or an invisible format character that reorders or hides text (bidi
// overrides and isolates such as U+202E, zero-width characters, the BOM, line and paragraph
// separators) is shown as an escape (`\n`, `\x1b`, `\u202E`) instead of acting on the terminal.
// A file called `invoice\u202Efdp.exe` then reads as what it is, not as `invoiceexe.pdf`.

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
// C0 and DEL, C1, then the format characters that change how text around them is shown.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

export function visible(text: string): string {
  return text.replace(UNSAFE, (char) => NAMED[char] ?? escapeOf(char));
}

function escapeOf(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
