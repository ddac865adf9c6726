import { Readable } from 'node:stream';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import { parseInteractiveArgs, UsageError, type SessionFlags } from '../session-flags.js';
import { agentServer } from '../acp/agent-server.js';
import { protocolOutput } from '../acp/protocol-output.js';
import { traceStartup } from '../../actors/indexer/startup-trace.js';

// `reika acp`: an Agent Client Protocol agent on stdin/stdout, for editors (Zed, JetBrains IDEs,
// Neovim, Emacs). Only JSON-RPC goes to stdout — anything else in the process that writes there
// (a worker thread's stray print) is turned to stderr, where the logs go. When stdin closes (the
// editor went away) every session is closed and reika exits.

export async function run(argv: string[]): Promise<number> {
  traceStartup('acp: loaded');
  let flags: SessionFlags;
  try {
    flags = parseInteractiveArgs(argv);
    if (flags.continue || flags.resume !== undefined || flags.cwd !== undefined) throw new UsageError('reika acp takes --profile, --mode and --approvals; the editor names the folder and the session');
  } catch (error) {
    if (UsageError.isInstance(error)) {
      process.stderr.write(`reika: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const log = (line: string) => process.stderr.write(`reika acp: ${line}\n`);
  const output = protocolOutput(process.stdout, process.stderr);
  const input = Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>;
  const server = agentServer({ flags, log });
  const connection = server.app.connect(ndJsonStream(output, input));
  traceStartup('acp: connected');
  await connection.closed;
  await server.close();
  // Whatever still holds the event loop (a prestarted thread never adopted) ends with the process.
  setImmediate(() => process.exit(0));
  return 0;
}
