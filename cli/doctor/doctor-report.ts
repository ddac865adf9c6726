import type { McpServerStatus } from '../../actors/mcp/hub.js';
import { modelFamily, type ModelFamily } from '../../actors/model-io/dialects/family.js';
import type { EngineInfo, ServerEngineInfo } from '../../actors/model-io/protocol.js';
import type { TemplateFinding } from '../../actors/model-io/template-check/probe.js';
import type { SafetyStatus } from '../../actors/tool-executor/safety/status.js';

/** What the doctor is told. Everything but the endpoint is optional: a server that is down still gets a report. */
export interface DoctorInput {
  profile: string;
  /** `REIKA_` or `REIKA_<PROFILE>_`: the settings a fix names. */
  prefix: string;
  baseUrl: string;
  configuredModel?: string;
  configuredWindow?: number;
  /** The sentence connecting failed with (server down, bad key, model unset). */
  connectError?: string;
  /** What kind of failure `connectError` is: each has its own fix (unset: no server answers). */
  connectKind?: 'unreachable' | 'auth' | 'model';
  models: string[];
  /** The model in use (configured, or the one the server offers). */
  model?: string;
  engine?: EngineInfo;
  /** The window the session settled at connect, when the engine record does not state one. */
  discoveredWindow?: number;
  /** This session's figures; absent for `reika doctor` outside a session. */
  session?: DoctorSession;
  /** What the engine's chat template does to reika's requests (actors/model-io/template-check). */
  template?: { findings: TemplateFinding[] };
  safety?: SafetyStatus;
  mcp?: { servers: McpServerStatus[]; problems: string[] };
}

export interface DoctorSession {
  /** The session's chat requests: the count `/tokens` shows. */
  requests: number;
  promptTokens: number;
  cachedTokens: number;
  /** Requests whose usage the server reported in this run (what the cache figures below cover); `requests` when absent. */
  measured?: number;
  /** Prompt tokens the engine evaluated, where it said so. */
  prefilledTokens?: number;
  /** Requests whose server reported no cache figures (hosted APIs often do not). */
  unreported?: number;
  /** Requests that re-prefilled more than was appended, with the cause when known. */
  breaks: Array<{ request: number; prefilled: number; appended: number; cause?: string }>;
  /** How the model wrote its calls, as last seen. */
  dialect?: string;
  /** What the compaction events cost (cache-ledger.ts), and on llama.cpp why `--cache-reuse` would spare it. */
  compaction?: { events: number; keptTokens: number; measured: number; reprefilledTokens: number; cacheReuseAdvice?: string };
}

export interface DoctorProblem {
  /** What is wrong, one sentence. */
  problem: string;
  /** What to do, one sentence naming the setting or flag. */
  fix: string;
}

/**
 * What `reika doctor` and `/doctor` say: one record built from what reika knows (the config, the
 * engine's own answers, this session's figures, safety, MCP), with each problem and its fix.
 * `--json` prints it as is; {@link describeDoctor} makes the screen of it.
 */
export interface DoctorReport {
  profile: string;
  baseUrl: string;
  reachable: boolean;
  engine: string;
  engineVersion?: string;
  model?: string;
  window?: number;
  /** Where the window came from, in words (`REIKA_CONTEXT_WINDOW`, `llama.cpp /props n_ctx`…). */
  windowSource: string;
  slots?: { total: number; window?: number; busy?: number };
  toolCalls: string;
  /** The model family the template or model name reveals, and whether the engine parses its calls. */
  family?: string;
  template: string[];
  cache: string;
  safety: string[];
  mcp: string[];
  problems: DoctorProblem[];
  /** Suggestions for a setup that works (e.g. more llama-server slots for subagents): not faults. */
  tips: DoctorProblem[];
  /** The engine's record, as detected (for `--json`; the chat template's source is left out). */
  detected?: Omit<ServerEngineInfo, 'chatTemplate' | 'chatTemplateToolUse' | 'ollamaTemplate' | 'templateProbe'> | EngineInfo;
}

const ENGINE_NAMES: Record<ServerEngineInfo['engine'], string> = {
  'llama.cpp': 'llama.cpp (llama-server)',
  vllm: 'vLLM',
  sglang: 'SGLang',
  ollama: 'Ollama',
  lmstudio: 'LM Studio',
  mlx: 'MLX (mlx_lm.server)',
  hosted: 'hosted API',
  unknown: 'unknown (an OpenAI-compatible server that does not say which engine it is)',
};

/** Subagents per wave (SPEC §6): what one llama.cpp slot per actor needs. */
const WAVE = 4;

export function doctorReport(input: DoctorInput): DoctorReport {
  const problems: DoctorProblem[] = [];
  const engine = input.engine;
  const server = engine?.kind === 'server' ? engine : undefined;
  const kind = input.connectError === undefined ? undefined : (input.connectKind ?? 'unreachable');
  const reachable = kind !== 'unreachable' && !server?.unreachable;
  if (!reachable) {
    problems.push({ problem: kind === 'unreachable' && input.connectError ? input.connectError : `No model server answers at ${input.baseUrl}.`, fix: `start the server (e.g. llama-server -m model.gguf --port 8080) or set ${input.prefix}BASE_URL.` });
  } else if (kind === 'auth' || server?.authFailed) {
    problems.push({ problem: input.connectError ?? `The server at ${input.baseUrl} refused the API key.`, fix: `set ${input.prefix}API_KEY to a key this server accepts.` });
  } else if (input.connectError) {
    problems.push({ problem: input.connectError, fix: input.models.length > 0 ? `set ${input.prefix}MODEL to one of the models it offers.` : `set ${input.prefix}MODEL.` });
  }
  const tips: DoctorProblem[] = [];

  const window = windowOf(input);
  if (reachable && window.tokens === undefined) {
    problems.push({ problem: `The context window is unknown${server?.windowNote ? ` (${server.windowNote})` : ''}: reika keeps only the newest tool results in the prompt.`, fix: `set ${input.prefix}CONTEXT_WINDOW to the window the server runs with.` });
  }
  const serverWindow = server?.slotWindow ?? server?.window;
  if (input.configuredWindow && serverWindow && input.configuredWindow > serverWindow) {
    problems.push({ problem: `${input.prefix}CONTEXT_WINDOW=${input.configuredWindow} but the server runs ${serverWindow} tokens per request: long requests will fail.`, fix: `lower ${input.prefix}CONTEXT_WINDOW to ${serverWindow}${server?.engine === 'llama.cpp' ? ', or raise llama-server -c' : ''}.` });
  }
  if (server?.engine === 'ollama' && window.tokens !== undefined && window.tokens <= 8192) {
    problems.push({ problem: `Ollama runs the model with a window of ${window.tokens} tokens: a coding agent's prompt (system, repo map, files) soon fills it.`, fix: 'set OLLAMA_CONTEXT_LENGTH=32768 (or num_ctx in a Modelfile) and restart Ollama.' });
  }

  let slots: DoctorReport['slots'];
  if (server?.engine === 'llama.cpp' && server.totalSlots !== undefined) {
    slots = { total: server.totalSlots, ...(server.slotWindow ? { window: server.slotWindow } : {}), ...(server.busySlots !== undefined ? { busy: server.busySlots } : {}) };
    if (server.totalSlots === 1) {
      const cost = input.session?.promptTokens && input.session.requests ? ` (about ${Math.round(input.session.promptTokens / input.session.requests)} tokens now)` : '';
      problems.push({
        problem: `llama-server has one slot: a subagent wave runs its ${WAVE} subagents one after another in the main agent's slot, each evicting the main context, so the main agent's next request re-prefills its whole prompt${cost}.`,
        fix: `start llama-server with -np ${WAVE + 1} (one slot for the main agent and one per subagent) and -c ${WAVE + 1}× the window you want per slot (or --kv-unified).`,
      });
    } else if (server.totalSlots < WAVE + 1) {
      tips.push({ problem: `llama-server has ${server.totalSlots} slots: the main agent keeps slot 0 and a wave of ${WAVE} subagents shares the other ${server.totalSlots - 1}.`, fix: `start llama-server with -np ${WAVE + 1} for a slot per subagent.` });
    }
  }

  const template = reachable ? templateLines(input, problems) : [];
  const family = server && reachable ? modelFamily(server) : undefined;
  const toolCalls = toolCallLine(input, problems, family);
  const familyText = family && server ? familyLine(family, server, input, problems) : undefined;
  const cache = cacheLine(input, problems, tips);
  const safety = safetyLines(input.safety, problems);
  const mcp = mcpLines(input.mcp, problems);

  const report: DoctorReport = {
    profile: input.profile,
    baseUrl: input.baseUrl,
    reachable,
    engine: engine?.kind === 'embedded' ? 'embedded llama.cpp (node-llama-cpp, inside reika)' : server ? `${ENGINE_NAMES[server.engine]}${server.provider ? ` — ${server.provider}` : ''}` : reachable ? 'not detected yet' : 'none',
    ...(engine?.kind === 'embedded' ? { engineVersion: engine.nodeLlamaCpp } : server?.version ? { engineVersion: server.version } : {}),
    ...(input.model ? { model: input.model } : {}),
    ...(window.tokens !== undefined ? { window: window.tokens } : {}),
    windowSource: window.source,
    ...(slots ? { slots } : {}),
    toolCalls,
    ...(familyText ? { family: familyText } : {}),
    template,
    cache,
    safety,
    mcp,
    problems,
    tips,
  };
  if (server) {
    const { chatTemplate: _a, chatTemplateToolUse: _b, ollamaTemplate: _c, templateProbe: _d, ...rest } = server;
    report.detected = rest;
  } else if (engine) report.detected = engine;
  return report;
}

function windowOf(input: DoctorInput): { tokens?: number; source: string } {
  const engine = input.engine;
  if (input.configuredWindow) return { tokens: input.configuredWindow, source: `${input.prefix}CONTEXT_WINDOW` };
  if (engine?.kind === 'embedded') return { tokens: engine.window, source: engine.windowSource === 'trained' ? 'the model’s trained window' : engine.windowSource === 'memory' ? 'what fits in memory (less than the trained window)' : 'REIKA_CONTEXT_WINDOW' };
  if (!engine || engine.window === undefined) return input.discoveredWindow ? { tokens: input.discoveredWindow, source: 'the server, at connect' } : { source: 'unknown' };
  const source =
    engine.windowSource === 'props'
      ? 'llama.cpp /props n_ctx (per slot)'
      : engine.windowSource === 'server-info'
        ? engine.engine === 'ollama'
          ? 'Ollama num_ctx / the loaded model'
          : engine.engine === 'lmstudio'
            ? 'LM Studio loaded_context_length'
            : 'the server’s own info'
        : engine.engine === 'llama.cpp'
          ? '/v1/models n_ctx_train (the training window; /props did not answer)'
          : '/v1/models';
  return { tokens: engine.window, source };
}

function templateLines(input: DoctorInput, problems: DoctorProblem[]): string[] {
  const server = input.engine?.kind === 'server' ? input.engine : undefined;
  if (input.engine?.kind === 'embedded') return [`the GGUF's own template (${input.engine.chatTemplate}), rendered by node-llama-cpp`];
  if (server?.engine !== 'llama.cpp') {
    if (!server) return ['not known'];
    const who = server.engine === 'unknown' ? 'the server' : ENGINE_NAMES[server.engine].split(' (')[0];
    return [`${who} does not expose its chat template: reika cannot check what it does to the cache`];
  }
  if (!server.chatTemplate) {
    problems.push({ problem: 'llama-server did not expose a chat template in /props.', fix: 'start llama-server with --jinja (and --chat-template-file FILE if the GGUF has none).' });
    return ['not exposed by llama-server'];
  }
  const lines: string[] = [];
  if (server.templateCaps?.supports_tool_calls === false || server.templateCaps?.supports_tools === false) {
    problems.push({ problem: 'The chat template has no tool calls: reika reads the calls the model writes as text.', fix: 'start llama-server with --chat-template-file FILE holding a template with tools (llama.cpp models/templates).' });
  }
  for (const finding of input.template?.findings ?? []) {
    lines.push(finding.message);
    if (finding.fix) problems.push({ problem: finding.message, fix: finding.fix });
  }
  if (lines.length === 0) lines.push(input.template ? 'renders reika’s requests append-only: each prompt extends the previous one' : 'exposed; checked once requests have been rendered');
  return lines;
}

/** The flag that makes `server` parse `family`'s calls itself, when it has a parser for them. */
function parserFlag(server: ServerEngineInfo, family: ModelFamily | undefined): string | undefined {
  if (server.engine === 'llama.cpp') return 'start llama-server with --jinja so its parser returns native tool_calls.';
  if (server.engine === 'vllm' && (!family || family.vllm)) return `start vLLM with --enable-auto-tool-choice --tool-call-parser ${family?.vllm ?? 'NAME'}.`;
  if (server.engine === 'sglang' && family?.sglang) return `start SGLang with --tool-call-parser ${family.sglang}.`;
  return undefined;
}

function toolCallLine(input: DoctorInput, problems: DoctorProblem[], family?: ModelFamily): string {
  const dialect = input.session?.dialect;
  if (dialect === 'native') return 'native (the server returns tool_calls)';
  if (dialect) {
    const server = input.engine?.kind === 'server' ? input.engine : undefined;
    problems.push({ problem: `The model writes its tool calls as text (${dialect}) and the server does not parse them.`, fix: (server && parserFlag(server, family)) ?? 'enable the server’s tool-call parser; reika reads the text meanwhile.' });
    return `text, ${dialect} dialect (reika parses it)`;
  }
  const engine = input.engine;
  if (engine?.kind === 'embedded') return engine.toolCalls === 'template' ? 'native, in the template’s own syntax' : engine.toolCalls === 'generic' ? 'native, node-llama-cpp’s generic syntax' : 'none';
  if (engine?.engine === 'llama.cpp' && engine.templateCaps) return engine.templateCaps.supports_tool_calls === false ? 'text (the template has no tool calls)' : 'native expected (the template takes tools); confirmed at the first call';
  if (engine?.engine === 'sglang') return engine.toolCallParser ? `native (SGLang --tool-call-parser ${engine.toolCallParser})` : 'text unless SGLang runs with --tool-call-parser';
  if (engine?.kind === 'server' && engine.nativeTools !== undefined) return engine.nativeTools ? 'native (the engine says the model takes tools)' : 'text (the engine says the model has no tools)';
  return 'not seen yet (known after the model’s first call)';
}

/** `MiniMax-M2 (from the chat template): …` — whether and with which flag the engine parses its calls. */
function familyLine(family: ModelFamily, server: ServerEngineInfo, input: DoctorInput, problems: DoctorProblem[]): string {
  const head = `${family.name} (from the ${family.source})`;
  if (input.session?.dialect === 'native') return `${head}: the engine parses its tool calls`;
  switch (server.engine) {
    case 'llama.cpp':
      return `${head}: llama.cpp parses its tool calls natively when llama-server runs with --jinja`;
    case 'vllm':
      return family.vllm ? `${head}: vLLM parses its tool calls only with --enable-auto-tool-choice --tool-call-parser ${family.vllm}` : `${head}: vLLM has no parser for it; reika reads its calls as text`;
    case 'sglang':
      if (!family.sglang) return `${head}: SGLang has no parser for it; reika reads its calls as text`;
      if (server.toolCallParser === family.sglang) return `${head}: SGLang parses its tool calls (--tool-call-parser ${family.sglang})`;
      problems.push({ problem: `SGLang runs ${server.toolCallParser ? `the ${server.toolCallParser} tool-call parser` : 'without a tool-call parser'}: ${family.name}'s calls reach reika as text.`, fix: `start SGLang with --tool-call-parser ${family.sglang}.` });
      return `${head}: SGLang does not parse its tool calls (add --tool-call-parser ${family.sglang})`;
    default:
      return `${head}: reika reads its ${family.dialect} calls as text when the engine does not parse them`;
  }
}

/** `· 4 compaction events: 9,800 tokens kept verbatim, 200 prefilled again`, and the `--cache-reuse` tip where it would help. */
function compactionPart(session: DoctorSession, tips: DoctorProblem[]): string {
  const cost = session.compaction;
  if (!cost || cost.events === 0) return '';
  if (cost.cacheReuseAdvice) tips.push({ problem: `Compaction cost the engine a prefill of the kept history: ${cost.cacheReuseAdvice}.`, fix: 'start llama-server with --cache-reuse 64.' });
  const again = cost.measured > 0 ? `, ${cost.reprefilledTokens} prefilled again by the engine` : '';
  return ` · ${cost.events} compaction event${cost.events === 1 ? '' : 's'}: ${cost.keptTokens} tokens kept verbatim${again}`;
}

function cacheLine(input: DoctorInput, problems: DoctorProblem[], tips: DoctorProblem[]): string {
  const session = input.session;
  if (!session) return 'no requests yet (run /doctor inside a session to see this session’s figures)';
  if (session.requests === 0) return 'no requests yet';
  if (session.promptTokens === 0) return `${session.requests} requests, the server reported no token counts`;
  if (session.unreported !== undefined && session.unreported > 0 && session.unreported === (session.measured ?? session.requests)) return `${session.requests} requests · ${session.promptTokens} prompt tokens; the server does not report cached tokens (common on hosted APIs), so what came from the cache is not known`;
  const hit = Math.round((session.cachedTokens / session.promptTokens) * 100);
  const prefilled = session.prefilledTokens ?? session.promptTokens - session.cachedTokens;
  let line = `${session.requests} requests · ${session.promptTokens} prompt tokens, ${hit}% from the cache, ${prefilled} prefilled${compactionPart(session, tips)}`;
  if (session.breaks.length > 0) {
    const worst = session.breaks.reduce((a, b) => (b.prefilled - b.appended > a.prefilled - a.appended ? b : a));
    line += ` · ${session.breaks.length} request${session.breaks.length === 1 ? '' : 's'} re-prefilled more than was appended (worst: request ${worst.request}, ${worst.prefilled} tokens for ${worst.appended} new${worst.cause ? `: ${worst.cause}` : ''})`;
    if (session.breaks.some((b) => !b.cause || /evict/.test(b.cause))) problems.push({ problem: 'The engine re-prefilled prompts it had cached, with no cause reika knows (another client, or the slot was reused).', fix: 'give reika its own server or slots (llama-server -np), and keep other clients off it.' });
  } else line += ' · every request reused the previous prompt';
  return line;
}

function safetyLines(safety: SafetyStatus | undefined, problems: DoctorProblem[]): string[] {
  if (!safety) return [];
  const { sandbox, checkpoints } = safety;
  const lines = [
    sandbox.kind === 'none' ? `sandbox: none — ${sandbox.note}` : `sandbox: ${sandbox.kind} (REIKA_SANDBOX=${sandbox.setting})`,
    checkpoints.enabled ? `checkpoints: on (${checkpoints.sessions} session${checkpoints.sessions === 1 ? '' : 's'} in this project${checkpoints.fullWalk ? `; each checkpoint walks the whole tree: ${checkpoints.fullWalk}` : ''})` : `checkpoints: off — ${checkpoints.note}`,
  ];
  if (sandbox.kind === 'none' && sandbox.setting !== 'off') problems.push({ problem: `bash commands run without a sandbox (${sandbox.note}).`, fix: process.platform === 'linux' ? 'install bubblewrap (apt install bubblewrap), or REIKA_SANDBOX=off to silence this.' : 'REIKA_SANDBOX=off silences this.' });
  return lines;
}

function mcpLines(mcp: DoctorInput['mcp'], problems: DoctorProblem[]): string[] {
  if (!mcp) return [];
  const lines = mcp.servers.map((server) => `${server.name} (${server.source}, ${server.type}) ${server.state}${server.state === 'ready' ? `: ${server.tools.length} tools` : server.reason ? `: ${server.reason}` : ''}`);
  for (const server of mcp.servers) {
    if (server.state === 'failed') problems.push({ problem: `MCP server ${server.name} failed: ${server.reason ?? 'no reason given'}.`, fix: `fix its entry in ${server.source === 'project' ? '.mcp.json' : '~/.config/reika/mcp.json'} (command, args, env), then /mcp reload.` });
    if (server.state === 'declined' && server.source === 'project') problems.push({ problem: `The project's MCP server ${server.name} was not started (not approved).`, fix: 'approve it in an interactive session, or REIKA_MCP_TRUST_PROJECT=1 for headless runs.' });
  }
  for (const problem of mcp.problems) problems.push({ problem: `MCP config: ${problem}.`, fix: 'fix the file it names.' });
  if (lines.length === 0) lines.push('none configured');
  return lines;
}

/** The report as one screen of lines (about 20). */
export function describeDoctor(report: DoctorReport): string[] {
  const lines: string[] = [];
  lines.push(`server:     ${report.baseUrl}${report.profile !== 'default' ? ` (profile ${report.profile})` : ''}${report.reachable ? '' : ' — not reachable'}`);
  if (report.reachable) {
    lines.push(`engine:     ${report.engine}${report.engineVersion ? ` ${report.engineVersion}` : ''}`);
    lines.push(`model:      ${report.model ?? 'unknown'}`);
    lines.push(`window:     ${report.window !== undefined ? `${report.window} tokens, from ${report.windowSource}` : 'unknown'}`);
    if (report.slots) lines.push(`slots:      ${report.slots.total}${report.slots.window ? ` × ${report.slots.window} tokens` : ''}${report.slots.busy ? ` (${report.slots.busy} busy)` : ''}${report.slots.total > 1 ? ' — main agent slot 0, subagents the others' : ''}`);
    lines.push(`tool calls: ${report.toolCalls}`);
    if (report.family) lines.push(`family:     ${report.family}`);
    report.template.forEach((line, i) => lines.push(`${i === 0 ? 'template:   ' : '            '}${line}`));
    lines.push(`cache:      ${report.cache}`);
  } else if (report.model) lines.push(`model:      ${report.model} (configured)`);
  report.safety.forEach((line, i) => lines.push(`${i === 0 ? 'safety:     ' : '            '}${line}`));
  if (report.mcp.length) report.mcp.forEach((line, i) => lines.push(`${i === 0 ? 'mcp:        ' : '            '}${line}`));
  if (report.problems.length === 0) lines.push('no problems found');
  for (const problem of report.problems) lines.push(`✗ ${problem.problem}`, `  fix: ${problem.fix}`);
  for (const tip of report.tips) lines.push(`tip: ${tip.problem}`, `     ${tip.fix}`);
  return lines;
}
