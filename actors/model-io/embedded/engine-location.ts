import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';

// Where the embedded engine lives when `reika engine install` put it there: node-llama-cpp (the
// version reika is written against) with only this platform's prebuilt llama.cpp, in reika's data
// folder, `$XDG_DATA_HOME/reika/engine` (default `~/.local/share/reika/engine`). A default install
// of reika does not carry it (its builds for every GPU are ~680 MB).

export const NODE_LLAMA_CPP_VERSION = '3.21.1';

/** `$XDG_DATA_HOME/reika/engine` (a relative XDG_DATA_HOME is ignored, as the spec says). */
export function engineFolder(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : join(env.HOME || homedir(), '.local', 'share');
  return join(base, 'reika', 'engine');
}

/**
 * The package of node-llama-cpp's prebuilt binaries for this machine's CPU build (no CUDA or
 * Vulkan: those come with a GPU's own setup); undefined where it publishes none.
 */
export function binaryPackage(platform: string = process.platform, arch: string = process.arch): string | undefined {
  const name: Record<string, string> = {
    'linux-x64': 'linux-x64',
    'linux-arm64': 'linux-arm64',
    'linux-arm': 'linux-armv7l',
    'darwin-arm64': 'mac-arm64-metal',
    'darwin-x64': 'mac-x64',
    'win32-x64': 'win-x64',
    'win32-arm64': 'win-arm64',
  };
  const found = name[`${platform}-${arch}`];
  return found ? `@node-llama-cpp/${found}` : undefined;
}

/** The file URL of node-llama-cpp's entry in the engine folder, when it is installed there. */
export function installedEngineEntry(folder: string = engineFolder()): string | undefined {
  const packageDir = join(folder, 'node_modules', 'node-llama-cpp');
  try {
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { exports?: { '.'?: { import?: string } }; main?: string };
    const entry = join(packageDir, manifest.exports?.['.']?.import ?? manifest.main ?? 'dist/index.js');
    return existsSync(entry) ? pathToFileURL(entry).href : undefined;
  } catch {
    return undefined;
  }
}
