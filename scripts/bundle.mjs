// The last step of `npm run build` (after tsc): bundles tsc's output into dist/bundle/, which is
// what ships (package.json `bin`), and writes the build's id.
//
// - One entry per thread and process reika starts (the CLI, the worker-thread and child-process
//   actor hosts, the actors they load, the indexer threads), shared code in chunks (esbuild
//   splits, Rollup merges the small ones: see mergeSmallChunks), so a thread loads a few files
//   instead of hundreds of modules (Node 20's ESM loader resolves, reads and links each one).
//   Dependencies stay in node_modules (piscina starts its own worker file there; optional native
//   modules load lazily).
// - `import.meta.url` in a module means the module's own file; in a bundle it would mean the chunk
//   it landed in. Each module's `import.meta.url` is replaced by the URL of its place in
//   dist/bundle/ (the same layout as dist/), so `new URL('../../build-id.json', import.meta.url)`
//   in actors/indexer/bootstrap-cache.js still finds the build's id — bundled. The startup indexer
//   thread's entry is a CommonJS file of its own (see STARTUP_BUNDLE below).
// - build-id.json (in dist/ and dist/bundle/): a hash of the emitted code, so a bootstrap cache
//   written by other code is never used (actors/indexer/bootstrap-cache.ts).
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { build } from 'esbuild';
import { rollup } from 'rollup';

const root = resolve(process.argv[2] ?? 'dist');
const out = join(root, 'bundle');
const entries = [
  'cli/main.js',
  'runtime/thread-entry.js',
  'runtime/process-entry.js',
  'actors/model-io/actor.js',
  'actors/tool-executor/actor.js',
  'actors/indexer/actor.js',
  'actors/subagent/actor.js',
  'actors/mcp/actor.js',
  'actors/lsp/actor.js',
  'actors/model-io/template-check/render-worker.js',
  'workers/pool-entry.js',
];
/**
 * The startup indexer thread's entry is bundled on its own, as one CommonJS file: nothing else
 * runs in that thread, so it shares no module with another entry, and a worker whose entry is
 * CommonJS boots without Node's ES module loader (empty thread: 28.3 → 21.0 ms quiet), then reads
 * one file instead of eight chunks. `actors/indexer/startup-thread.ts` starts it when it is there.
 */
const STARTUP_ENTRY = 'workers/startup-entry.js';
const STARTUP_BUNDLE = 'workers/startup-entry.cjs';
/**
 * The model-io thread, which `reika` starts first and the first request waits for, boots the same
 * way: `cli/model-io-entry.ts` (the thread host with the actor imported) as one CommonJS file, which
 * `cli/main.ts` starts when it is there. nanoid (an ES module package) is bundled into it, so no ES
 * module is loaded at all; other packages stay in node_modules (the ones it uses load lazily).
 */
const MODEL_IO_ENTRY = 'cli/model-io-entry.js';
const MODEL_IO_BUNDLE = 'cli/model-io-entry.cjs';
const MODEL_IO_BUNDLED_PACKAGES = ['nanoid'];
/**
 * Packages bundled into the ES module build (the rest stay in node_modules): the ACP SDK and the
 * zod it validates with are ~150 modules that `reika acp` loads before it can answer `initialize`;
 * one chunk of them loads in about half the time (100 vs 200 ms at load ~13, bench/acp.bench.ts),
 * and only `reika acp` imports that chunk. The LSP client (vscode-languageserver-protocol and the
 * two packages under it, ~60 CommonJS files) likewise, into the language-server actor that alone
 * uses it: loading the actor costs about 240 instead of 340 ms of CPU (task-clock, `node -e 0` 102), paid
 * at each language server's start, beside it.
 */
const ESM_BUNDLED_PACKAGES = ['@agentclientprotocol/sdk', 'zod', 'vscode-languageserver-protocol', 'vscode-jsonrpc', 'vscode-languageserver-types'];
const ROOT_PLACEHOLDER = '__REIKA_BUNDLE_ROOT__';
/** In the CommonJS bundle, what `import.meta.url` of the bundle file itself is. */
const CJS_FILE_URL = '__reika_bundle_file_url';

rmSync(out, { recursive: true, force: true });
// tsc never deletes what it emitted: a test file deleted from the tree would still run from dist/.
sweepStaleTests(join(root, 'test'), join(root, '..', 'test'));
// esbuild writes its split output here, and Rollup the bundle from it (mergeSmallChunks).
const split = mkdtempSync(join(tmpdir(), 'reika-bundle-'));
process.once('exit', () => rmSync(split, { recursive: true, force: true }));
await build({
  absWorkingDir: root,
  entryPoints: entries.map((entry) => join(root, entry)),
  outbase: root,
  outdir: split,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
  plugins: [packagesExternalBut(ESM_BUNDLED_PACKAGES), moduleUrls('import.meta.url')],
});
const files = await mergeSmallChunks(split);
for (const [entry, bundle, bundled] of [[STARTUP_ENTRY, STARTUP_BUNDLE], [MODEL_IO_ENTRY, MODEL_IO_BUNDLE, MODEL_IO_BUNDLED_PACKAGES]]) {
  files.push(...Object.keys((await commonJsBundle(entry, bundle, bundled)).metafile.outputs).map((file) => resolve(root, file)));
}
for (const path of files) {
  let text = readFileSync(path, 'utf8');
  const before = text;
  // Each output file finds the bundle's root from where it is.
  const up = relative(dirname(path), out).split(sep).join('/');
  text = text.replaceAll(ROOT_PLACEHOLDER, up === '' ? './' : `${up}/`);
  // A bundled CommonJS package's require() of a Node built-in goes through esbuild's `__require`,
  // which throws in an ES module unless `require` exists: the ES module files that hold it get one.
  if (path.endsWith('.js') && text.includes('Dynamic require of "')) text = `import { createRequire as __reikaCreateRequire } from 'node:module';\nconst require = __reikaCreateRequire(import.meta.url);\n${text}`;
  if (text !== before) writeFileSync(path, text);
}
// piscina's worker file is CommonJS (workers/pool-loader.cts): tsc emitted it, it goes beside the bundled entry it imports.
// Without tsc's source-map comment: the bundle ships no maps (package.json), and a comment naming a
// file that is not there makes tools that follow it (node --enable-source-maps, debuggers) complain.
writeFileSync(join(out, 'workers', 'pool-loader.cjs'), readFileSync(join(root, 'workers', 'pool-loader.cjs'), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'));
chmodSync(join(out, 'cli', 'main.js'), 0o755);
chmodSync(join(root, 'cli', 'main.js'), 0o755);

const hash = createHash('sha256');
const walk = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (path === out || (dir === root && (name === 'test' || name === 'bench'))) continue;
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.js')) hash.update(relative(root, path)).update('\0').update(readFileSync(path)).update('\0');
  }
};
walk(root);
const id = JSON.stringify({ id: hash.digest('hex').slice(0, 32) });
writeFileSync(join(root, 'build-id.json'), id);
writeFileSync(join(out, 'build-id.json'), id);

/**
 * esbuild splits shared code by the set of entries (dynamic imports included) that reach it: the
 * CLI's ~40 dynamic imports make ~170 chunks, many under 1 KB, and `reika -p` loaded 100 files
 * before its first request, at ~0.65 ms each in Node 20's ES module loader. Rollup reads esbuild's
 * output from `dir` and writes it to the bundle with the small chunks merged into others where that
 * runs no other code at load (its `experimentalMinChunkSize`): 54 files, and the first request in a
 * tiny repo 21–36 ms sooner (bench/startup.bench.ts, warm). Returns the paths written.
 */
async function mergeSmallChunks(dir) {
  const input = Object.fromEntries(entries.map((entry) => [entry.replace(/\.js$/, ''), join(dir, entry)]));
  const bundle = await rollup({
    input,
    // Packages (and Node's built-ins) stay imports, as esbuild left them.
    external: (id) => !id.startsWith('.') && !id.startsWith('/'),
    onLog(level, log, handler) {
      // The merge reports its counts as info; warnings and errors are the build's.
      if (level !== 'info') handler(level, log);
    },
  });
  const { output } = await bundle.write({
    dir: out,
    format: 'es',
    entryFileNames: '[name].js',
    // esbuild's names carry its hash: a chunk keeps the name and gets Rollup's hash.
    chunkFileNames: (chunk) => `chunks/${chunk.name.replace(/-[A-Z0-9]{8}$/, '')}-[hash].js`,
    // Lower case: two names differing only in case would be one file on macOS's and Windows' disks.
    hashCharacters: 'base36',
    experimentalMinChunkSize: 20_000,
  });
  await bundle.close();
  return output.map((file) => join(out, file.fileName));
}

/**
 * One entry as one CommonJS file of its own (a thread entry: see STARTUP_BUNDLE). Packages stay in
 * node_modules, but those named in `bundled`.
 */
function commonJsBundle(entry, outfile, bundled = []) {
  // The checkout's manifest, wherever the build went (dist/, or .build/NAME as the README shows).
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const packages = Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies, ...manifest.devDependencies }).filter((name) => !bundled.includes(name));
  return build({
    absWorkingDir: root,
    entryPoints: [join(root, entry)],
    outfile: join(out, outfile),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    ...(bundled.length === 0 ? { packages: 'external' } : { external: packages.flatMap((name) => [name, `${name}/*`]) }),
    metafile: true,
    logLevel: 'warning',
    banner: { js: `'use strict';\nconst ${CJS_FILE_URL} = require('node:url').pathToFileURL(__filename).href;` },
    plugins: [moduleUrls(CJS_FILE_URL)],
  });
}

/** Leaves every package import to node_modules (`packages: 'external'`) except those of `bundled`. */
function packagesExternalBut(bundled) {
  return {
    name: 'packages-external-but',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
        return bundled.includes(name) ? undefined : { path: args.path, external: true };
      });
    },
  };
}

/**
 * Replaces each module's `import.meta.url` by the URL of its place in dist/bundle/, computed from
 * `fileUrl` (the URL of the output file it lands in) and the root placeholder filled in below.
 */
function moduleUrls(fileUrl) {
  return {
    name: 'module-urls',
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const place = relative(root, args.path).split(sep).join('/');
        return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(place)}, new URL(${JSON.stringify(ROOT_PLACEHOLDER)}, ${fileUrl})).href`), loader: 'js' };
      });
    },
  };
}

/** Removes compiled `*.test.js` files (and their maps) whose `.ts` source is gone. */
function sweepStaleTests(compiled, source) {
  let names;
  try {
    names = readdirSync(compiled, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of names) {
    const path = join(compiled, entry.name);
    if (entry.isDirectory()) sweepStaleTests(path, join(source, entry.name));
    else if (entry.name.endsWith('.test.js') && !exists(join(source, entry.name.replace(/\.js$/, '.ts')))) {
      for (const suffix of ['', '.map']) rmSync(path + suffix, { force: true });
    }
  }
}

function exists(path) {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}
