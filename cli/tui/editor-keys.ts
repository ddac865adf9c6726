import type { KeyName } from './keys.js';
import type { LineEditor } from './line-editor.js';

/**
 * The editing keys of the prompt, readline-style: Ctrl+A/E always go to the line's start/end,
 * Ctrl+B/F and ←/→ move, Ctrl+W/U/K delete, Ctrl+P/N and ↑/↓ walk lines then history, Alt+Enter
 * (or Ctrl+J) breaks the line. Returns false for keys that are not editing keys.
 */
export function editKey(editor: LineEditor, name: KeyName): boolean {
  switch (name) {
    case 'newline':
      editor.insert('\n');
      return true;
    case 'left':
    case 'ctrl-b':
      editor.left();
      return true;
    case 'right':
    case 'ctrl-f':
      editor.right();
      return true;
    case 'home':
    case 'ctrl-a':
      editor.lineStart();
      return true;
    case 'end':
    case 'ctrl-e':
      editor.lineEnd();
      return true;
    case 'word-left':
      editor.wordLeft();
      return true;
    case 'word-right':
      editor.wordRight();
      return true;
    case 'backspace':
      editor.backspace();
      return true;
    case 'delete':
      editor.deleteForward();
      return true;
    case 'ctrl-w':
    case 'word-backspace':
      editor.deleteWordBack();
      return true;
    case 'ctrl-u':
      editor.deleteToLineStart();
      return true;
    case 'ctrl-k':
      editor.deleteToLineEnd();
      return true;
    case 'up':
    case 'ctrl-p':
      editor.up();
      return true;
    case 'down':
    case 'ctrl-n':
      editor.down();
      return true;
    default:
      return false;
  }
}
