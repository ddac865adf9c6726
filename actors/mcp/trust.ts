import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stateFolder } from '../state-dir.js';
import type { McpServerConfig } from './config.js';

/**
 * Which project servers the user approved, per project root, in the state folder
 * (`~/.local/state/reika/mcp-trust.json`). An approval holds for the server's command line and
 * working folder (or URL) as they were shown: a `.mcp.json` that changes them asks again.
 */
export class McpTrust {
  constructor(private readonly file = join(stateFolder(), 'mcp-trust.json')) {}

  isTrusted(root: string, server: McpServerConfig): boolean {
    return this.read()[root]?.[server.name] === fingerprint(server);
  }

  remember(root: string, server: McpServerConfig): void {
    const all = this.read();
    all[root] = { ...all[root], [server.name]: fingerprint(server) };
    mkdirSync(dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(all, null, 2)}\n`);
    renameSync(temp, this.file);
  }

  private read(): Record<string, Record<string, string>> {
    try {
      const json = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
      return json !== null && typeof json === 'object' ? (json as Record<string, Record<string, string>>) : {};
    } catch {
      return {};
    }
  }
}

/** What an approval covers: where it runs and what it runs (not env values, which may be secrets). */
function fingerprint(server: McpServerConfig): string {
  const shown = server.type === 'stdio' ? { command: server.command, args: server.args, cwd: server.cwd, env: Object.keys(server.env).sort() } : { url: server.url };
  return createHash('sha256').update(JSON.stringify({ type: server.type, ...shown })).digest('hex').slice(0, 32);
}
