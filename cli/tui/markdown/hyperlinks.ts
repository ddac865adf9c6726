/**
 * Whether the terminal shows OSC 8 hyperlinks (`ESC ] 8 ; ; URL ESC \ text ESC ] 8 ; ; ESC \`).
 * There is no reliable query, so this goes by what terminals say about themselves; an unknown
 * terminal gets the link as text (`text (url)`), which every terminal shows. `FORCE_HYPERLINK=1`
 * or `0` decides instead (the name other command-line tools read).
 */
export function hyperlinksSupported(env: NodeJS.ProcessEnv = process.env): boolean {
  const forced = env.FORCE_HYPERLINK;
  if (forced !== undefined && forced !== '') return forced !== '0' && forced.toLowerCase() !== 'false';
  const term = env.TERM ?? '';
  if (term === 'dumb') return false;
  const program = env.TERM_PROGRAM ?? '';
  const version = env.TERM_PROGRAM_VERSION ?? '';
  // tmux passes them on from 3.4 (and drops them where the outer terminal cannot show them).
  if (program === 'tmux') return atLeast(version, [3, 4]);
  if (env.TMUX || term.startsWith('screen')) return false;
  if (program === 'iTerm.app') return atLeast(version, [3, 1]);
  if (program === 'vscode') return atLeast(version, [1, 72]);
  if (program === 'WezTerm' || program === 'ghostty' || program === 'Tabby') return true;
  if (env.WT_SESSION) return true;
  if (term === 'xterm-kitty' || env.KITTY_WINDOW_ID) return true;
  if (term === 'alacritty' || env.ALACRITTY_WINDOW_ID) return true;
  if (term.startsWith('foot')) return true;
  // GNOME Terminal, Tilix and the other VTE terminals from 0.50; Konsole from 20.12.
  if (Number(env.VTE_VERSION) >= 5000) return true;
  if (Number(env.KONSOLE_VERSION) >= 201200) return true;
  return false;
}

function atLeast(version: string, wanted: [number, number]): boolean {
  const [major = 0, minor = 0] = version.split(/[.a-z-]/i).map((part) => Number(part) || 0);
  return major > wanted[0] || (major === wanted[0] && minor >= wanted[1]);
}
