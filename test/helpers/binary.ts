import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The `reika` binary as it ships: the file package.json's `bin` names (the bundle the build makes
 * from tsc's output, `scripts/bundle.mjs`). End-to-end tests run this one, not tsc's modules.
 */
const packageRoot = new URL('../../../', import.meta.url);
const { bin } = JSON.parse(readFileSync(new URL('package.json', packageRoot), 'utf8')) as { bin: { reika: string } };

export const reikaBin = fileURLToPath(new URL(bin.reika, packageRoot));
