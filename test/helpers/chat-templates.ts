import { readFileSync } from 'node:fs';

/** The real chat templates in test/fixtures/chat-templates (27 models' own, as llama.cpp ships them). */
export const TEMPLATE_DIR = new URL('../../../test/fixtures/chat-templates/', import.meta.url);

export interface TemplateFixture {
  id: string;
  file: string;
  bos: string;
  eos: string;
}

/** SOURCES.md's table. Cells are split on ` | ` (the special tokens hold `|` themselves). */
export function templateFixtures(): TemplateFixture[] {
  const rows: TemplateFixture[] = [];
  for (const line of readFileSync(new URL('SOURCES.md', TEMPLATE_DIR), 'utf8').split('\n')) {
    const cells = line.replace(/^\|\s*/, '').replace(/\s*\|$/, '').split(/\s\|(?=\s|$)/).map((cell) => cell.trim());
    if (cells.length < 4 || !cells[1]!.startsWith('models/templates/')) continue;
    const [bos, eos] = cells[3]!.split(' / ').map((token) => (token === '(none)' ? '' : token.replace(/^`|`$/g, '')));
    rows.push({ id: cells[0]!, file: cells[1]!.slice('models/templates/'.length), bos: bos!, eos: eos! });
  }
  return rows;
}
