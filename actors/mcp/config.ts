import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { safeToolPart } from './tool-names.js';

// MCP server configuration: `~/.config/reika/mcp.json` (the user's, trusted) and the project's
// `.mcp.json` (started only once approved, see `trust.ts`), in the `{"mcpServers": {…}}` shape
// other clients share. A project server with the name of a user server replaces it. Values may
// use `${VAR}` (and `${VAR:-default}`), expanded from the environment. A bad entry is one line in
// `problems` and the others load.

export type McpSource = 'user' | 'project';

interface ServerCommon {
  /** The key in `mcpServers`. */
  name: string;
  source: McpSource;
  /** The file it came from. */
  file: string;
  /** `"approve": "always"`: safe mode runs its tools without asking. */
  approveAlways: boolean;
  /** A tool call's time without an answer or progress, in ms (`"timeout"`, default 10 minutes). */
  timeoutMs: number;
  /** How long `reika -p` waits for it to be ready before its first request (`"startup_timeout_ms"`, default 10 s). */
  startupTimeoutMs: number;
}

export interface StdioServerConfig extends ServerCommon {
  type: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  /** Absolute; the project root when not set (a relative `cwd` is relative to it). */
  cwd: string;
}

export interface HttpServerConfig extends ServerCommon {
  /** `http` tries streamable HTTP and falls back to the older SSE transport; `sse` goes straight to it. */
  type: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig;

export interface McpConfig {
  servers: McpServerConfig[];
  /** One line per file or entry that could not be used. */
  problems: string[];
}

export const DEFAULT_TOOL_TIMEOUT_MS = 600_000;
/** How long a headless run waits for a server to be ready before its first request. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 10_000;

/** Reads `userFolder/mcp.json` (the config's `userFolder`) and `root/.mcp.json`; `${VAR}` from `env`. */
export function loadMcpConfig(root: string, userFolder: string, env: NodeJS.ProcessEnv = process.env): McpConfig {
  const problems: string[] = [];
  const byName = new Map<string, McpServerConfig>();
  for (const [source, file] of [['user', join(userFolder, 'mcp.json')], ['project', join(root, '.mcp.json')]] as const) {
    for (const server of readFile(file, source, root, env, problems)) byName.set(server.name, server);
  }
  // Tool names carry the server's name made safe (`.` → `_`): two servers that read alike there
  // would offer tools of the same name, so the later one is left out with a line.
  const servers: McpServerConfig[] = [];
  const bySafeName = new Map<string, string>();
  for (const server of byName.values()) {
    const safe = safeToolPart(server.name);
    const other = bySafeName.get(safe);
    if (other !== undefined) {
      problems.push(`${server.file}: server "${server.name}": its tools would be named like those of "${other}" (mcp__${safe}__…); rename one of them`);
      continue;
    }
    bySafeName.set(safe, server.name);
    servers.push(server);
  }
  return { servers, problems };
}

function readFile(file: string, source: McpSource, root: string, env: NodeJS.ProcessEnv, problems: string[]): McpServerConfig[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') problems.push(`${file}: cannot be read (${(error as Error).message})`);
    return [];
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    problems.push(`${file}: not valid JSON (${(error as Error).message})`);
    return [];
  }
  const servers = (json as { mcpServers?: unknown } | null)?.mcpServers;
  if (!isRecord(servers)) {
    problems.push(`${file}: has no "mcpServers" object`);
    return [];
  }
  const out: McpServerConfig[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    try {
      out.push(readServer(name, entry, { file, source, root, env }));
    } catch (error) {
      problems.push(`${file}: server "${name}": ${(error as Error).message}`);
    }
  }
  return out;
}

function readServer(name: string, entry: unknown, at: { file: string; source: McpSource; root: string; env: NodeJS.ProcessEnv }): McpServerConfig {
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw new Error('a server name is letters, digits, ".", "_" or "-" (at most 64)');
  if (!isRecord(entry)) throw new Error('must be an object');
  const expand = (value: unknown, key: string): string => {
    if (typeof value !== 'string') throw new Error(`"${key}" must be a string`);
    return expandVariables(value, at.env, key);
  };
  const record = (value: unknown, key: string): Record<string, string> => {
    if (value === undefined) return {};
    if (!isRecord(value)) throw new Error(`"${key}" must be an object of strings`);
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v, `${key}.${k}`)]));
  };
  if (entry.approve !== undefined && entry.approve !== 'always' && entry.approve !== 'ask') throw new Error('"approve" is "always" or "ask"');
  const timeout = entry.timeout ?? DEFAULT_TOOL_TIMEOUT_MS;
  if (typeof timeout !== 'number' || !(timeout > 0)) throw new Error('"timeout" is a number of milliseconds');
  const startup = entry.startup_timeout_ms ?? DEFAULT_STARTUP_TIMEOUT_MS;
  if (typeof startup !== 'number' || !(startup >= 0)) throw new Error('"startup_timeout_ms" is a number of milliseconds');
  const common = { name, source: at.source, file: at.file, approveAlways: entry.approve === 'always', timeoutMs: timeout, startupTimeoutMs: startup };
  const type = entry.type ?? (entry.url !== undefined ? 'http' : 'stdio');
  if (type === 'http' || type === 'sse' || type === 'streamable-http') {
    const url = expand(entry.url, 'url');
    try {
      new URL(url);
    } catch {
      throw new Error(`"url" is not a URL: ${url}`);
    }
    return { ...common, type: type === 'sse' ? 'sse' : 'http', url, headers: record(entry.headers, 'headers') };
  }
  if (type !== 'stdio') throw new Error(`unknown "type" ${JSON.stringify(type)} (stdio, http or sse)`);
  const command = expand(entry.command, 'command');
  if (command.trim() === '') throw new Error('"command" is empty');
  if (entry.args !== undefined && !Array.isArray(entry.args)) throw new Error('"args" must be an array of strings');
  const args = ((entry.args as unknown[] | undefined) ?? []).map((arg, i) => expand(arg, `args[${i}]`));
  const cwd = entry.cwd === undefined ? at.root : resolve(at.root, expand(entry.cwd, 'cwd'));
  return { ...common, type: 'stdio', command, args, env: record(entry.env, 'env'), cwd };
}

/** `${VAR}` and `${VAR:-default}`; an unset variable without a default is an error naming it. */
export function expandVariables(value: string, env: NodeJS.ProcessEnv, key = 'value'): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_, variable: string, fallback: string | undefined) => {
    const set = env[variable];
    if (set !== undefined && set !== '') return set;
    if (fallback !== undefined) return fallback;
    throw new Error(`"${key}" uses \${${variable}}, which is not set`);
  });
}

/** The command line as the user approves it: `cmd arg 'arg with space'`. */
export function commandLine(server: McpServerConfig): string {
  if (server.type !== 'stdio') return `${server.type} ${server.url}`;
  return [server.command, ...server.args].map(quote).join(' ');
}

function quote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
