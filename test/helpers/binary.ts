/**
 * The `reika` binary as it ships: the bundle the build makes from tsc's output
 * (`scripts/bundle.mjs`), next to this compiled tree (`dist/bundle/cli/main.js`, the file
 * package.json's `bin` names; test/cli/main.test.ts checks that they agree). End-to-end tests
 * run this one, not tsc's modules.
 */
export const reikaBin = new URL('../../bundle/cli/main.js', import.meta.url).pathname;
