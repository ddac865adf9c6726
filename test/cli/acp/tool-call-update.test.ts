import test from 'ava';
import { outputUpdate } from '../../../cli/acp/tool-call-update.js';

const shown = (output: string) => {
  const [content] = outputUpdate('c1', output).content!;
  return (content as { content: { text: string } }).content.text;
};

test("a command's output goes to the editor in a code fence no line of it can close", (t) => {
  t.is(shown('plain\n'), '```\nplain\n```');
  t.is(shown('a ``` b\n````\n'), '`````\na ``` b\n````\n`````');
  // A run of 300,000 backticks: one pass (the fence grew a backtick per search of the text).
  const run = '`'.repeat(300_000);
  t.is(shown(run), `${'`'.repeat(300_001)}\n${run}\n${'`'.repeat(300_001)}`);
});
