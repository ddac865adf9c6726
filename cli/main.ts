#!/usr/bin/env node
// First: a signal from the first millisecond on is an interrupt (exit 130), not a crash.
import './early-interrupt.js';
import { checkpointSession } from '../actors/tool-executor/safety/session-id.js';
import { prespawnThread } from '../runtime/prespawn.js';
import { MODEL_IO } from '../actors/model-io/protocol.js';
import { MODEL_IO_MODULE, modelIoEntry } from './actor-modules.js';
import { takeModelOption } from './model-option.js';
import { locateSubcommand, type Subcommand } from './subcommand.js';
import { version } from './version.js';

// The `reika` binary. Parses the command line and hands off to one command module, imported
// lazily so that `--help` and the interactive prompt start without loading what they don't use.

const HELP = `reika — a terminal coding agent for local and hosted LLMs

Usage:
  reika [FLAGS]               interactive session in the current folder
  reika -p "PROMPT" [FLAGS]   headless: run one task, print the answer as it streams
                              (the prompt may come on stdin; with -p, piped stdin is attached)
        [--json | --stream]   one JSON result object, or JSON lines of events
  reika index [DIR] [--json]  print the file index (no model server needed)
  reika map [DIR] [--json]    print the repo map (no model server needed)
  reika undo [--list] [N]     undo the last N steps of the last session here (files only)
  reika sessions [--all] [--json]  the stored sessions of this folder, newest first
  reika -c, --continue        resume the newest session of this folder (with -p too)
  reika --resume [ID]         resume session ID (a picker without ID)
  reika acp                   serve the Agent Client Protocol on stdin/stdout (Zed, JetBrains,
                              Neovim, Emacs run reika as their agent; see the README)
  reika doctor [--json]       what reika knows of the server, engine, model, window, slots,
                              template, safety and MCP servers, and how to fix each problem
  reika config [--json]       the settings in effect here and where each came from
                              (docs/settings.md lists every key)
  reika engine [install]      whether the embedded engine (--model FILE.gguf) is installed;
                              install: node-llama-cpp with this platform's llama.cpp build
  reika completion bash|zsh|fish  a shell completion script (reika completion bash >> ~/.bashrc)
  reika --help | --version

Documentation: README.md and docs/ in reika's package folder (npm root -g)/reika

Flags (they win over the configuration):
  -m, --model NAME|FILE.gguf  the model for this run (REIKA_MODEL); a .gguf file runs inside reika
  --profile NAME              start on this profile (REIKA_PROFILE; REIKA_PROFILES lists them)
  --mode agent|plan           plan only reads
  --approvals safe|off        off confirms every action (bypass: REIKA_AUTO_APPROVE only)
  --cwd DIR                   work in DIR instead of the current folder

Configuration (environment, the project's .env and .reika/settings.json, then yours in
~/.config/reika/; reika config shows what is in effect):
  REIKA_BASE_URL        OpenAI-compatible server (default http://localhost:8080/v1)
  REIKA_MODEL           model name, or a .gguf file to run inside reika (no server)
  REIKA_API_KEY         API key               REIKA_THREADS / REIKA_GPU  embedded engine
  REIKA_CONTEXT_WINDOW  tokens (else asked of the server)
  REIKA_MAX_TOKENS      generation cap        REIKA_AUTO_APPROVE     safe | off | bypass
  REIKA_REPO_MAP_BUDGET repo-map tokens       REIKA_PROFILES         a,b → REIKA_<NAME>_*
  REIKA_SANDBOX         auto | bwrap | off    REIKA_CHECKPOINTS      on | off
  REIKA_REQUEST_TIMEOUT_MS  ms without life from the server (default 600000; 0 = forever)
  REIKA_REASONING_HISTORY   auto | keep | drop  reasoning sent back in the history
`;

/** Each subcommand's module, loaded only when it runs. */
const COMMANDS: Record<Exclude<Subcommand, 'acp'>, () => Promise<{ run(argv: string[]): Promise<number> }>> = {
  index: () => import('./commands/index-command.js'),
  map: () => import('./commands/map-command.js'),
  undo: () => import('./commands/undo-command.js'),
  sessions: () => import('./commands/sessions-command.js'),
  doctor: () => import('./commands/doctor-command.js'),
  config: () => import('./commands/config-command.js'),
  engine: () => import('./commands/engine-command.js'),
  completion: () => import('./commands/completion-command.js'),
};

async function main(input: string[]): Promise<number> {
  const taken = takeModelOption(input);
  if (!Array.isArray(taken)) {
    process.stderr.write(`reika: ${taken.error}\n`);
    return 2;
  }
  const argv = taken;
  const [first] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  if (first === '--version' || first === '-v') {
    process.stdout.write(`reika ${version()}\n`);
    return 0;
  }
  const located = locateSubcommand(argv);
  if (located.kind === 'error') {
    process.stderr.write(`reika: ${located.message}\n`);
    return 2;
  }
  if (located.kind === 'subcommand' && located.name !== 'acp') {
    if (located.cwd !== undefined) {
      try {
        process.chdir(located.cwd);
      } catch (error) {
        process.stderr.write(`reika: --cwd ${located.cwd}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such folder' : (error as Error).message}\n`);
        return 2;
      }
    }
    return (await COMMANDS[located.name]()).run(located.args);
  }
  // A session needs the model-io thread first of all: it boots while the rest loads (the runtime adopts it).
  prespawnThread(MODEL_IO, MODEL_IO_MODULE, modelIoEntry());
  // One session id for this run: the tool executor files its checkpoints under it, /undo reads them.
  checkpointSession();
  // An editor's agent server: JSON-RPC on stdin/stdout (docs/editors.md).
  if (located.kind === 'subcommand') return (await import('./commands/acp-command.js')).run(located.args);
  if (argv.includes('-p') || argv.includes('--prompt') || !process.stdin.isTTY || !process.stdout.isTTY) {
    return (await import('./commands/headless-command.js')).run(argv);
  }
  return (await import('./commands/interactive-command.js')).run(argv);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`reika: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
