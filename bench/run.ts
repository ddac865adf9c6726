import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * `npm run bench [name…]`: runs every `bench/*.bench.js` (or the named ones) one after another,
 * each in this process so figures are printed in order. Each bench prints its figures beside a
 * reference measured in the same run.
 */
const here = fileURLToPath(new URL('.', import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((file) => file.endsWith('.bench.js'))
  .filter((file) => wanted.length === 0 || wanted.some((name) => file.startsWith(name)))
  .sort();

for (const file of benches) {
  process.stdout.write(`\n## ${file.replace('.bench.js', '')}\n`);
  const bench = (await import(new URL(file, import.meta.url).href)) as { default: () => Promise<void> };
  await bench.default();
}
