import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packagesIn } from '../../helpers/record-loads.js';
import { tempDir } from '../../helpers/temp.js';
import { startReika } from './reika-term.js';

/**
 * What the interactive start loads, up to its prompt and the start's own work (the index and the
 * repo map, which the status line announces): the spawn → prompt time is the first
 * thing a user meets (bench tui), and every package read there is paid at every start. The tools'
 * heavier packages load where they are first used: entities with the first fetched page,
 * jsonc-parser with the first settings file, the LSP and MCP clients with their first server, the
 * ACP SDK only in `reika acp`. A package added to this list should say, in its commit, what it
 * costs the start.
 */

/** Bundle files the start may load (54 when this was written, headroom for what comes). */
const MAX_BUNDLE_FILES = 64;

/** What may load by then. */
const AT_START = new Set(['ignore', 'msgpackr', 'nanoid', 'piscina']);

test('the interactive start loads only the packages it needs (no settings files, no MCP servers)', async (t) => {
  const loads = join(tempDir('reika-loads-'), 'loads.txt');
  const preload = new URL('../../helpers/record-loads.js', import.meta.url).href;
  await startReika(t, { width: 80, height: 24, noColor: true }, [], { env: { NODE_OPTIONS: `--import=${preload}`, REIKA_TEST_LOADS: loads }, ready: 'repo map of' });
  const lines = readFileSync(loads, 'utf8').split('\n').filter(Boolean);
  t.true(lines.some((line) => line.includes('/bundle/cli/')), 'the recorder saw the start');
  // Each file costs the ES module loader ~0.65 ms: scripts/bundle.mjs merges esbuild's small
  // chunks (54 files here; 87 without the merge).
  const bundleFiles = new Set(lines.filter((line) => line.startsWith('file:') && line.includes('/bundle/')));
  t.true(bundleFiles.size <= MAX_BUNDLE_FILES, `the start loaded ${bundleFiles.size} bundle files (at most ${MAX_BUNDLE_FILES})`);
  t.deepEqual(
    packagesIn(lines).filter((name) => !AT_START.has(name)),
    [],
    'packages loaded at the start beyond the ones it needs',
  );
  // The ACP SDK and the LSP client are bundled (scripts/bundle.mjs), so they are not seen as
  // packages: their bundle files must not load either.
  t.deepEqual(
    lines.filter((line) => /\/bundle\/(chunks\/acp-command-|actors\/lsp\/)/.test(line)),
    [],
    'the bundled ACP SDK or LSP client loaded at the start',
  );
});
