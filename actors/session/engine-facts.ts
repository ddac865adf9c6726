import type { Config } from '../config/load-config.js';
import type { ContextManager } from '../context/context-manager.js';
import type { SystemPlacement } from '../model-io/system-placement.js';
import type { ChatMessage, Endpoint, EngineInfo, ToolSchema } from '../model-io/protocol.js';
import { keepReasoning } from '../model-io/http/reasoning-history.js';
import type { TemplateBreak } from '../model-io/template-check/compare.js';
import type { TemplateFinding } from '../model-io/template-check/probe.js';
import type { TemplateChecker } from '../model-io/template-check/template-checker.js';
import { CacheLedger, cacheReuseAdvice, type CacheTotals, type CompactionFact, type RequestCache } from '../agent/cache-ledger.js';
import type { AgentEvent } from '../agent/events.js';

/** Engine facts settled once per connection, before the first request when they come in time. */
export interface EngineDecision {
  placement: SystemPlacement;
  /** The template's say on REIKA_REASONING_HISTORY=auto (undefined: not known). */
  templateKeepsReasoning?: boolean;
  findings?: TemplateFinding[];
}

/** What `/doctor` needs of the session beyond its info. */
export interface SessionDoctorFacts {
  engine?: EngineInfo;
  /** The template probe's findings at start. */
  templateFindings?: TemplateFinding[];
  /** Breaks the template check saw in this session's requests. */
  templateBreaks: Array<{ request: number; break: TemplateBreak }>;
  placement: SystemPlacement;
  reasoningHistory: boolean;
}

/**
 * How long the first turn waits for the engine's detection once the bootstrap is done (it usually
 * ends long before the scan); past it, the session goes on without it. REIKA_ENGINE_WAIT_MS waits
 * that long for the template probe too (tests).
 */
const DETECTION_WAIT_MS = 300;

/**
 * What the session does with the engine's record, in one place: the template probe's
 * decision (where the system prompt goes, whether reasoning goes back), the llama.cpp fields of
 * each request (`return_progress`, `id_slot`), the template check of each sent request, and the
 * real cache figures of the main agent's requests ({@link CacheLedger}).
 */
export class EngineFacts {
  private detection: Promise<EngineInfo | undefined> = Promise.resolve(undefined);
  private engine: EngineInfo | undefined;
  private decision: Promise<EngineDecision> = Promise.resolve({ placement: 'system' });
  private decided: EngineDecision | undefined;
  /** Renders each main-agent request through the engine's template, when it exposes one. */
  private templates: TemplateChecker | undefined;
  private readonly breaks: Array<{ request: number; break: TemplateBreak }> = [];
  /** Renders still under way: a turn's result waits for them. */
  private readonly renders = new Set<Promise<unknown>>();
  private readonly ledger = new CacheLedger();
  private pendingCompaction: CompactionFact | undefined;
  private waveSinceRequest = false;
  private currentRequest = 0;
  private placementUsed: SystemPlacement = 'system';
  private reasoningUsed = false;

  constructor(private readonly config: Config) {}

  /** True unless REIKA_TEMPLATE_CHECK=off. */
  get templateCheckOn(): boolean {
    return this.config.engine.templateCheck;
  }

  /** A connection's detection (ModelLink; the same one again is a no-op): its record decides the facts of the next conversation. */
  follow(detection: Promise<EngineInfo | undefined>): void {
    if (this.detection === detection) return;
    this.detection = detection;
    this.engine = undefined;
    this.decided = undefined;
    void this.templates?.close();
    this.templates = undefined;
    const decision = detection.then((engine) => this.decide(engine, () => this.detection === detection));
    this.decision = decision;
    decision.then((value) => {
      if (this.detection === detection) this.decided = value;
    }, () => {});
  }

  private async decide(engine: EngineInfo | undefined, current: () => boolean): Promise<EngineDecision> {
    if (current()) this.engine = engine;
    if (engine?.kind !== 'server' || !engine.chatTemplate || !this.templateCheckOn) return { placement: 'system' };
    const { TemplateChecker } = await import('../model-io/template-check/template-checker.js');
    if (!current()) return { placement: 'system' };
    this.templates = new TemplateChecker({ template: engine.chatTemplate, ...(engine.bosToken !== undefined ? { bosToken: engine.bosToken } : {}), ...(engine.eosToken !== undefined ? { eosToken: engine.eosToken } : {}) });
    const probe = engine.templateProbe;
    return probe ? { placement: probe.placement, templateKeepsReasoning: probe.keepsReasoning, findings: probe.findings } : { placement: 'system' };
  }

  /**
   * The facts for a conversation's first request: detection is waited for a little once the
   * bootstrap is done; the probe is not (a late one is adopted by {@link conversationStarted}).
   */
  async forConversation(): Promise<EngineDecision | undefined> {
    if (this.decided) return this.decided;
    const configured = this.config.engine.waitMs ?? 0;
    const wanted: Promise<unknown> = configured > 0 ? this.decision : this.detection;
    let timer: NodeJS.Timeout | undefined;
    // Not unref'd: the first turn waits on it (it is cleared as soon as detection answers).
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, configured > 0 ? configured : DETECTION_WAIT_MS)));
    try {
      await Promise.race([wanted.catch(() => undefined), late]);
    } finally {
      clearTimeout(timer);
    }
    return this.decided;
  }

  /** Options for a new conversation's ContextManager. */
  contextOptions(decision: EngineDecision | undefined, model: string): { systemPlacement?: SystemPlacement; reasoningHistory: boolean } {
    const reasoning = keepReasoning(this.config.engine.reasoningHistory, model, decision?.templateKeepsReasoning);
    this.placementUsed = decision?.placement ?? 'system';
    this.reasoningUsed = reasoning;
    return { ...(decision ? { systemPlacement: decision.placement } : {}), reasoningHistory: reasoning };
  }

  /** A conversation began: its prefix starts over; a probe that ends later is adopted by it once. */
  conversationStarted(context: ContextManager, decision: EngineDecision | undefined, model: string, current: () => boolean): void {
    this.restartPrefix();
    if (decision) return;
    const detection = this.detection;
    this.decision.then((late) => {
      if (!current() || this.detection !== detection) return;
      const reasoning = keepReasoning(this.config.engine.reasoningHistory, model, late.templateKeepsReasoning);
      context.adoptEngineFacts({ systemPlacement: late.placement, reasoningHistory: reasoning });
      this.placementUsed = late.placement;
      this.reasoningUsed ||= reasoning;
    }, () => {});
  }

  /** `/new`, `/cd`, `/resume`: the prefix starts over and the old conversation's last request is not shown as this one's. */
  newConversation(): void {
    this.ledger.newConversation();
    this.templates?.forget('main');
  }

  /** The system prompt or tools changed on purpose: the next request starts the prefix over, unflagged. */
  restartPrefix(): void {
    this.ledger.restart();
    this.templates?.forget('main');
  }

  private get llamaCpp(): { slots: number } | undefined {
    const engine = this.engine;
    return engine?.kind === 'server' && engine.engine === 'llama.cpp' ? { slots: engine.totalSlots ?? 1 } : undefined;
  }

  /** A turn's endpoint: llama.cpp gets `return_progress`, and slot 0 when it has several. */
  endpointFor(endpoint: Endpoint): Endpoint {
    const llama = this.llamaCpp;
    if (!llama) return endpoint;
    return { ...endpoint, llamaCpp: { progress: true, ...(llama.slots > 1 ? { slot: 0 } : {}) } };
  }

  /** The slots a wave's subagents spread over (llama-server with several), for SubagentWaves. */
  waveSlots(baseUrl: string): { slots: { total: number; baseUrl: string } } | Record<string, never> {
    const llama = this.llamaCpp;
    return llama && llama.slots > 1 ? { slots: { total: llama.slots, baseUrl } } : {};
  }

  /** The ledger's view of the session's events; `usage` comes back with its cache figures. */
  track(event: AgentEvent): AgentEvent {
    switch (event.type) {
      case 'compaction':
        this.pendingCompaction = { keptTokens: event.keptTokens, heldTokens: event.heldTokens };
        return event;
      case 'request': {
        const sharedSlot = this.llamaCpp?.slots === 1;
        this.currentRequest = this.ledger.begin({ ...(this.pendingCompaction ? { compaction: this.pendingCompaction } : {}), sharedSlotWave: sharedSlot && this.waveSinceRequest });
        this.pendingCompaction = undefined;
        this.waveSinceRequest = false;
        return event;
      }
      case 'tool-call':
        if (event.state.call.name === 'subagent') this.waveSinceRequest = true;
        return event;
      case 'usage': {
        const cache = this.ledger.record(this.currentRequest, event.usage);
        return cache ? { ...event, cache } : event;
      }
      default:
        return event;
    }
  }

  /** A main-agent request was sent: the checker renders it; the session's first break is one notice. */
  sent(turn: string, messages: ChatMessage[], tools: ToolSchema[], emit: (event: AgentEvent) => void): void {
    const checker = this.templates;
    if (!checker) return;
    const request = this.currentRequest;
    const render = checker.render('main', messages, tools);
    this.renders.add(render);
    void render.catch(() => {}).finally(() => this.renders.delete(render));
    render.then(
      (result) => {
        if (!result.break || checker !== this.templates) return;
        const first = this.breaks.length === 0;
        this.breaks.push({ request, break: result.break });
        this.ledger.explain(request, result.break.description);
        if (first) emit({ type: 'notice', turn, message: `the chat template changed the prompt at request ${request}: ${result.break.description} (≈${result.break.lostTokens} tokens re-prefilled; reika doctor says more)` });
      },
      () => {},
    );
  }

  /** Waits for the template checks under way (milliseconds in the worker). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.renders]);
  }

  get cache(): CacheTotals {
    return this.ledger.totals();
  }

  /** On llama.cpp, why `--cache-reuse` would help this session's compaction events (undefined: it would not, or another engine). */
  get cacheReuseAdvice(): string | undefined {
    return this.llamaCpp ? cacheReuseAdvice(this.ledger.totals().compaction) : undefined;
  }

  get lastRequest(): RequestCache | undefined {
    return this.ledger.last();
  }

  doctorFacts(engine: EngineInfo | undefined): SessionDoctorFacts {
    return {
      ...(engine ? { engine } : {}),
      ...(this.decided?.findings ? { templateFindings: this.decided.findings } : {}),
      templateBreaks: this.breaks.map((entry) => ({ ...entry })),
      placement: this.placementUsed,
      reasoningHistory: this.reasoningUsed,
    };
  }
}
