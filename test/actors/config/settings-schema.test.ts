import test from 'ava';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SETTINGS } from '../../../actors/settings/declarations.js';
import { settingsSchema } from '../../../actors/config/settings-schema.js';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));

test('the JSON Schema shipped in docs/ is the one made from the declarations', (t) => {
  const shipped = JSON.parse(readFileSync(`${repo}docs/settings.schema.json`, 'utf8'));
  t.deepEqual(shipped, settingsSchema(), 'regenerate docs/settings.schema.json from settingsSchema()');
});

test('docs/settings.md names every setting a user may set, with its key and variable', (t) => {
  const doc = readFileSync(`${repo}docs/settings.md`, 'utf8');
  const missing = SETTINGS.filter((s) => !('internal' in s)).filter((s) => !doc.includes(`\`${s.env}\``) || (s.from !== 'environment' && !doc.includes(`\`${s.key}\``)));
  t.deepEqual(missing.map((s) => s.env), []);
});
