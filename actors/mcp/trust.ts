import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stateFolder } from '../state-dir.js';
import type { McpServerConfig } from './config.js';

/**
 * Trust in a project, the one decision behind its loosening settings and its MCP servers (SPEC
 * §16, §17): a trusted project's `.env` and `.reika/` settings may loosen safety and change the
 * server, model or key, and its `.mcp.json` servers start without asking. The user gives it once
 * per project (asked in the terminal with what would change), or for a run with
 * REIKA_TRUST_PROJECT=1; it is remembered in the state folder (`trusted-projects.json`).
 */
export class ProjectTrust {
  constructor(private readonly file = join(stateFolder(), 'trusted-projects.json')) {}

  isTrusted(root: string): boolean {
    return this.read()[root] !== undefined;
  }

  remember(root: string): void {
    const all = this.read();
    all[root] = new Date().toISOString();
    writePrivate(this.file, all);
  }

  private read(): Record<string, string> {
    return readJson(this.file);
  }
}

let shared: ProjectTrust | undefined;

/** The trust of this user's projects (the state folder of this process's environment). */
export function projectTrust(): ProjectTrust {
  shared ??= new ProjectTrust();
  return shared;
}

/**
 * Which project servers the user approved one by one, per project root, in the state folder
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
    writePrivate(this.file, all);
  }

  private read(): Record<string, Record<string, string>> {
    return readJson(this.file);
  }
}

function readJson<T>(file: string): Record<string, T> {
  try {
    const json = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, T>) : {};
  } catch {
    return {};
  }
}

/** Written whole through a temporary file, private to the user. */
function writePrivate(file: string, value: unknown): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, file);
}

/** What an approval covers: where it runs and what it runs (not env values, which may be secrets). */
function fingerprint(server: McpServerConfig): string {
  const shown = server.type === 'stdio' ? { command: server.command, args: server.args, cwd: server.cwd, env: Object.keys(server.env).sort() } : { url: server.url };
  return createHash('sha256').update(JSON.stringify({ type: server.type, ...shown })).digest('hex').slice(0, 32);
}
