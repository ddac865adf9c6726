import { Supervisor } from '../../runtime/supervisor.js';
import { describeServer } from './describe-status.js';
import { McpHub, type McpServerStatus } from './hub.js';
import type { McpTrust } from './trust.js';

// `reika doctor`'s MCP section: starts every configured server the way a session would (the
// user's at once; a project's only if approved before or REIKA_MCP_TRUST_PROJECT=1, as nobody is
// asked here), waits until each is ready or failed (or `timeoutMs` passed), and stops them all
// again. One call, nothing left running.

export interface McpCheckOptions {
  /** The project root (its `.mcp.json`). */
  root: string;
  /** The config's `userFolder` (`~/.config/reika`, holding `mcp.json`). */
  userFolder: string;
  /** REIKA_MCP_TRUST_PROJECT=1. */
  trustProject?: boolean;
  /** How long a server may take to be ready; default 30 s. */
  timeoutMs?: number;
  /** `${VAR}` in the config is read here; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Tests pass a trust file of their own. */
  trust?: McpTrust;
}

export interface McpCheck {
  servers: McpServerStatus[];
  /** Lines for config files or entries that could not be used. */
  problems: string[];
  /** What doctor prints: one line per server (`everything (user, stdio) ready: 13 tools`), its command, then the problems. */
  lines: string[];
}

export async function checkMcpServers(options: McpCheckOptions): Promise<McpCheck> {
  const supervisor = new Supervisor();
  try {
    const hub = new McpHub({ supervisor, headless: true, ...(options.env ? { env: options.env } : {}), ...(options.trust ? { trust: options.trust } : {}) });
    await hub.start(options.root, { userFolder: options.userFolder, trustProject: options.trustProject ?? false });
    await hub.settled(options.timeoutMs ?? 30_000);
    const servers = hub.status();
    const problems = hub.configProblems();
    const lines = servers.flatMap((status) => [
      status.state === 'starting' ? `${describeServer(status)}: not ready after ${Math.round((options.timeoutMs ?? 30_000) / 1000)} s` : describeServer(status),
      `  $ ${status.command}`,
    ]);
    if (servers.length === 0) lines.push('no MCP servers configured (.mcp.json, ~/.config/reika/mcp.json)');
    lines.push(...problems.map((problem) => `config: ${problem}`));
    return { servers, problems, lines };
  } finally {
    await supervisor.close();
  }
}
