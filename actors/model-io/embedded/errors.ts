import { ReikaError } from '../../../runtime/errors.js';
import { NODE_LLAMA_CPP_VERSION } from './engine-location.js';

// What can go wrong before the embedded engine generates anything, each one sentence a user
// can act on. Codes are stable (`reika doctor` and tests branch on them).

export { NODE_LLAMA_CPP_VERSION } from './engine-location.js';

export function packageMissing(detail?: string): ReikaError {
  return new ReikaError(
    'REIKA_ERR_EMBEDDED_UNAVAILABLE',
    `Running a .gguf model inside reika needs its embedded engine (node-llama-cpp ${NODE_LLAMA_CPP_VERSION}), which is not installed${detail ? ` (${detail})` : ''} — run \`reika engine install\` (about 70 MB, this platform's build only), or set REIKA_BASE_URL to use a server.`,
  );
}

export function noBinary(detail: string): ReikaError {
  return new ReikaError('REIKA_ERR_EMBEDDED_UNAVAILABLE', `node-llama-cpp has no llama.cpp binary that loads on this machine (${detail}) — run the model in llama-server and set REIKA_BASE_URL instead.`);
}

export function modelMissing(path: string): ReikaError {
  return new ReikaError('REIKA_ERR_MODEL_FILE', `There is no model file at ${path} — set REIKA_MODEL to the path of a .gguf file.`);
}

export function notGguf(path: string): ReikaError {
  return new ReikaError('REIKA_ERR_MODEL_FILE', `${path} is not a GGUF model (it does not start with "GGUF") — set REIKA_MODEL to a .gguf file.`);
}

export function unsupportedModel(path: string, detail: string): ReikaError {
  return new ReikaError('REIKA_ERR_MODEL_UNSUPPORTED', `llama.cpp (node-llama-cpp ${NODE_LLAMA_CPP_VERSION}) cannot load ${path}: ${oneLine(detail)}.`);
}

export function outOfMemory(path: string, what: string, detail?: string): ReikaError {
  return new ReikaError(
    'REIKA_ERR_OUT_OF_MEMORY',
    `Not enough memory for ${what} of ${path}${detail ? ` (${oneLine(detail)})` : ''} — set REIKA_CONTEXT_WINDOW lower or use a smaller quantisation.`,
  );
}

export function windowExceeded(needed: number, window: number): ReikaError {
  return new ReikaError('REIKA_ERR_CONTEXT_OVERFLOW', `The request needs ${needed} tokens but the embedded engine's window is ${window} — set REIKA_CONTEXT_WINDOW higher.`);
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
