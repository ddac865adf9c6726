import { findProfile, loadConfig } from '../../actors/config/load-config.js';
import { ConfigError } from '../../actors/settings/parse.js';
import { describeDoctor, doctorReport } from '../doctor/doctor-report.js';
import { gatherServer, oneSentence } from '../doctor/gather.js';

// `reika doctor [--json] [--profile NAME] [--cwd DIR]`: what reika knows of the server, the
// model, the engine and this machine, and the fix for each problem, on one screen (or one JSON
// object). Works with the server down (exit 1, the first problem says so); never a stack trace.

/** How long configured MCP servers get to start before their state is reported. */
const MCP_WAIT_MS = 5_000;

export async function run(argv: string[]): Promise<number> {
  let json = false;
  let profileName: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--json') json = true;
    else if (arg === '--profile' && argv[i + 1]) profileName = argv[++i];
    else if (arg === '--cwd' && argv[i + 1]) {
      try {
        process.chdir(argv[++i]!);
      } catch (error) {
        process.stderr.write(`reika: cannot work in ${argv[i]}: ${(error as NodeJS.ErrnoException).code ?? oneSentence(error)}\n`);
        return 2;
      }
    } else {
      process.stderr.write(`reika: doctor takes --json, --profile NAME and --cwd DIR, not "${arg}"\n`);
      return 2;
    }
  }
  const cwd = process.cwd();
  let config;
  try {
    config = loadConfig({ cwd });
  } catch (error) {
    if (ConfigError.isInstance(error)) {
      process.stderr.write(`reika: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const profile = profileName ? findProfile(config, profileName) : config.active;
  if (!profile) {
    process.stderr.write(`reika: no profile "${profileName}" (profiles: ${config.profiles.map((p) => p.name).join(', ')})\n`);
    return 2;
  }
  const signal = new AbortController().signal;
  const [server, safety, mcp] = await Promise.all([
    gatherServer(config, profile, signal),
    import('../../actors/tool-executor/safety/status.js').then(({ safetyStatus }) => safetyStatus(cwd, config.tools)).catch(() => undefined),
    mcpStatus(cwd, config.userFolder, config.mcp.trustProject),
  ]);
  const report = doctorReport({ ...server, ...(safety ? { safety } : {}), ...(mcp ? { mcp } : {}) });
  if (json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else process.stdout.write(`${describeDoctor(report).join('\n')}\n`);
  // A setup that cannot work (no server, a refused key, a model it does not have) is exit 1; tips are not.
  return report.reachable && server.connectError === undefined ? 0 : 1;
}

/** Starts the configured MCP servers as a headless session would, reports their states, stops them. */
async function mcpStatus(cwd: string, userFolder: string, trustProject: boolean) {
  try {
    const [{ Supervisor }, { McpHub }] = await Promise.all([import('../../runtime/supervisor.js'), import('../../actors/mcp/hub.js')]);
    const supervisor = new Supervisor();
    try {
      const hub = new McpHub({ supervisor, headless: true });
      await hub.start(cwd, { userFolder, trustProject });
      await hub.settled(MCP_WAIT_MS);
      return { servers: hub.status(), problems: hub.configProblems() };
    } finally {
      await supervisor.close();
    }
  } catch {
    return undefined;
  }
}
