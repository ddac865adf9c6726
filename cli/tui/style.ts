// ANSI styling that honours `NO_COLOR` (any non-empty value) and `TERM=dumb`: with either set
// every function returns its text unchanged, so layout never depends on colour.

export interface Style {
  readonly color: boolean;
  dim(text: string): string;
  bold(text: string): string;
  italic(text: string): string;
  underline(text: string): string;
  inverse(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  blue(text: string): string;
  magenta(text: string): string;
  cyan(text: string): string;
}

/** True when the environment asks for no colour. */
export function colorDisabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.NO_COLOR !== undefined && env.NO_COLOR !== '') || env.TERM === 'dumb';
}

function wrap(open: number, close: number): (text: string) => string {
  return (text) => (text === '' ? '' : `\x1b[${open}m${text}\x1b[${close}m`);
}

const plain = (text: string): string => text;

export function createStyle(color: boolean): Style {
  if (!color) {
    return { color, dim: plain, bold: plain, italic: plain, underline: plain, inverse: plain, red: plain, green: plain, yellow: plain, blue: plain, magenta: plain, cyan: plain };
  }
  return {
    color,
    dim: wrap(2, 22),
    bold: wrap(1, 22),
    italic: wrap(3, 23),
    underline: wrap(4, 24),
    inverse: wrap(7, 27),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    blue: wrap(34, 39),
    magenta: wrap(35, 39),
    cyan: wrap(36, 39),
  };
}

/** Drops SGR and other CSI sequences, and OSC ones (hyperlinks), for width counting and plain output. */
export function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '');
}
