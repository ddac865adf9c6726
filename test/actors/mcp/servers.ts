import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileSync, mkdirSync } from 'node:fs';
import { tempDir } from '../../helpers/temp.js';

/**
 * The real MCP servers the tests run (devDependencies): `@modelcontextprotocol/server-everything`
 * (every protocol feature: echo, sums, images, errors, long-running calls with progress) and
 * `@modelcontextprotocol/server-filesystem`, started with this Node.
 */
const require = createRequire(import.meta.url);

export function everythingEntry(): string {
  return join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
}

export function filesystemEntry(): string {
  return join(dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')), 'dist', 'index.js');
}

/** A stdin tap in front of a server: every line the server is sent is also appended to `log`. */
export const TAP = fileURLToPath(new URL('./stdin-tap.js', import.meta.url));

/** A fresh HOME and XDG folders, so no test reads the real ~/.config or writes the real state. */
export function isolatedEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const home = tempDir('reika-home-');
  return { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_STATE_HOME: join(home, '.state'), ...extra };
}

/** Writes `~/.config/reika/mcp.json` (user) for an isolated env. */
export function writeUserConfig(env: NodeJS.ProcessEnv, servers: Record<string, unknown>): void {
  const folder = join(env.XDG_CONFIG_HOME!, 'reika');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'mcp.json'), JSON.stringify({ mcpServers: servers }));
}

/** Where a hub started for an isolated env looks (as the session passes it from the config). */
export function whereOf(env: NodeJS.ProcessEnv): { userFolder: string; trustProject: boolean } {
  return { userFolder: join(env.XDG_CONFIG_HOME!, 'reika'), trustProject: env.REIKA_MCP_TRUST_PROJECT === '1' };
}
