import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { binaryPackage, engineFolder, installedEngineEntry, NODE_LLAMA_CPP_VERSION } from '../../actors/model-io/embedded/engine-location.js';

// `reika engine` says whether the embedded engine (llama.cpp inside reika, for `--model x.gguf`)
// is installed and where; `reika engine install` installs it: node-llama-cpp at the version reika
// is written against, with only this platform's prebuilt CPU build of llama.cpp (not the CUDA and
// Vulkan builds npm would add for every x64 Linux), from the npm registry into reika's data
// folder. npm (which comes with Node) does the fetching; any failure is one line.

const USAGE = 'usage: reika engine [install]';

export async function run(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (rest.length > 0 || (action !== undefined && action !== 'install' && action !== 'status')) return fail(`reika engine: ${USAGE}`);
  const folder = engineFolder();
  if (action !== 'install') {
    if (installedEngineEntry(folder)) process.stdout.write(`the embedded engine (node-llama-cpp ${NODE_LLAMA_CPP_VERSION}) is installed in ${folder} (${megabytes(sizeOf(folder))} MB)\n`);
    else process.stdout.write(`the embedded engine is not installed; \`reika engine install\` installs it in ${folder}\n`);
    return 0;
  }
  const binaries = binaryPackage();
  if (!binaries) return fail(`reika engine install: node-llama-cpp publishes no prebuilt llama.cpp for ${process.platform}-${process.arch}; run the model in llama-server and set REIKA_BASE_URL instead`);
  try {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'package.json'), `${JSON.stringify({ name: 'reika-embedded-engine', private: true, description: 'Installed by `reika engine install`.' }, null, 2)}\n`);
  } catch (error) {
    return fail(`reika engine install: cannot write ${folder} (${(error as Error).message})`);
  }
  process.stderr.write(`reika: installing node-llama-cpp ${NODE_LLAMA_CPP_VERSION} and ${binaries} into ${folder}…\n`);
  // No optional packages (the GPU builds), no install scripts (node-llama-cpp's would download or build llama.cpp).
  const args = ['install', '--prefix', folder, '--omit=optional', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', `node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`, `${binaries}@${NODE_LLAMA_CPP_VERSION}`];
  const result = await npm(args);
  if (result.code !== 0 || !installedEngineEntry(folder)) {
    const reason = result.error ?? lastLine(result.stderr) ?? `npm exited with ${result.code}`;
    return fail(`reika engine install: could not install node-llama-cpp ${NODE_LLAMA_CPP_VERSION} from the npm registry (${reason})`);
  }
  process.stdout.write(`the embedded engine (node-llama-cpp ${NODE_LLAMA_CPP_VERSION}, ${binaries}) is installed in ${folder} (${megabytes(sizeOf(folder))} MB); run a model with reika --model FILE.gguf\n`);
  return 0;
}

function npm(args: string[]): Promise<{ code: number | null; stderr: string; error?: string }> {
  const command = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  return new Promise((resolve) => {
    let stderr = '';
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    child.once('error', (error) => resolve({ code: null, stderr, error: `npm could not be run: ${error.message}` }));
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

function lastLine(text: string): string | undefined {
  const lines = text
    .split('\n')
    .map((line) => line.replace(/^npm (ERR!|error)\s*/, '').trim())
    .filter((line) => line !== '' && !/^A complete log of this run|^\d{4}-\d\d-\d\dT/.test(line));
  return lines.find((line) => /^(code|errno) /.test(line) === false && /E[A-Z]+|fail|error|not found|unable/i.test(line)) ?? lines.at(-1);
}

function sizeOf(path: string): number {
  let total = 0;
  const stack = [path];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) stack.push(full);
      else if (entry.isFile()) total += statSync(full).size;
    }
  }
  return total;
}

function megabytes(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(0);
}

function fail(message: string): number {
  process.stderr.write(`${message}\n`);
  return 1;
}
