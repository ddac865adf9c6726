import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installedEngineEntry } from '../../actors/model-io/embedded/engine-location.js';
import { tempDir } from './temp.js';
import { writeTinyModel, type TinyModelOptions } from './gguf-model.js';

/**
 * For the embedded engine's tests: whether node-llama-cpp loads here (installed by `reika engine
 * install`, or the checkout's dev install; where it cannot load, those tests are skipped and say
 * why), and tiny models.
 */

let probe: Promise<string | undefined> | undefined;

/** Undefined when node-llama-cpp and its CPU binary load; else why not, in one line. */
export function embeddedUnavailable(): Promise<string | undefined> {
  // In a child process: llama.cpp's logger is one per process, and the engine's thread needs it.
  // From a file, not `-e`: node-llama-cpp tests its binary in a child that inherits execArgv.
  probe ??= new Promise((resolve) => {
    // Found as reika finds it: `reika engine install`'s folder first, else the checkout's dev install.
    let entry: string;
    try {
      entry = fileURLToPath(installedEngineEntry() ?? import.meta.resolve('node-llama-cpp'));
    } catch {
      return resolve('node-llama-cpp is not installed (reika engine install)');
    }
    const file = join(tempDir('reika-probe-'), 'probe.mjs');
    writeFileSync(
      file,
      `import(${JSON.stringify(entry)}).then((m) => m.getLlama({ build: 'never', skipDownload: true, progressLogs: false, gpu: false, logLevel: 'disabled' })).then(() => process.exit(0), (e) => { process.stdout.write(String((e && e.message) || e).split('\\n')[0]); process.exit(1); });\n`,
    );
    execFile(process.execPath, [file], { timeout: 60_000 }, (error, stdout) => resolve(error ? stdout.trim() || error.message.split('\n')[0] : undefined));
  });
  return probe;
}

/** A tiny random-weight model in a fresh temp folder. */
export function tinyModel(options: TinyModelOptions = {}, name = 'tiny.gguf'): string {
  return writeTinyModel(join(tempDir('reika-gguf-'), name), options);
}
