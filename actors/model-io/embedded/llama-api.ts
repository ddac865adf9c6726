// The part of node-llama-cpp (3.21.1) the embedded engine uses, typed here rather than imported:
// node-llama-cpp is an optional dependency, so reika must compile and run without it. The module
// is loaded at run time only (load.ts); every call reika makes into it goes through these types.

export type Token = number & { __token?: never };

export interface TokenMeterState {
  usedInputTokens: number;
  usedOutputTokens: number;
}

export interface LlamaTextLike {
  readonly values: readonly unknown[];
  toString(): string;
  tokenize(tokenizer: unknown, options?: 'trimLeadingSpace'): Token[];
}

export interface ChatWrapperLike {
  readonly wrapperName: string;
  readonly settings: {
    functions?: {
      call: { optionalPrefixSpace?: boolean; prefix: unknown; paramsPrefix: unknown; suffix: unknown };
      parallelism?: { call: { sectionPrefix: unknown; betweenCalls?: unknown; sectionSuffix?: unknown } } | null;
    };
    segments?: { thought?: { prefix: unknown; suffix?: unknown } };
  };
  generateContextState(options: { chatHistory: HistoryItem[]; availableFunctions?: Record<string, FunctionDoc>; documentFunctionParams?: boolean }): { contextText: LlamaTextLike };
}

/** node-llama-cpp's chat history items (ChatHistoryItem). */
export type HistoryItem =
  | { type: 'system'; text: string }
  | { type: 'user'; text: string }
  | { type: 'model'; response: ModelResponseItem[] };

export type ModelResponseItem =
  | string
  | { type: 'functionCall'; name: string; params: unknown; result: unknown; startsNewChunk?: boolean }
  | { type: 'segment'; segmentType: 'thought'; text: string; ended: boolean };

export interface FunctionDoc {
  description?: string;
  params?: unknown;
}

export interface GrammarLike {
  readonly __grammar?: never;
}

export interface GrammarStateLike {
  readonly __grammarState?: never;
}

export interface SequenceLike {
  readonly contextTokens: Token[];
  readonly nextTokenIndex: number;
  readonly tokenMeter: { getState(): TokenMeterState };
  evaluate(
    tokens: Token[],
    options?: {
      temperature?: number;
      topK?: number;
      topP?: number;
      minP?: number;
      seed?: number;
      grammarEvaluationState?: () => GrammarStateLike | undefined;
      yieldEogToken?: boolean;
    },
  ): AsyncGenerator<Token, void, Token | Token[] | undefined>;
  evaluateWithoutGeneratingNewTokens(tokens: Token[]): Promise<void>;
  eraseContextTokenRanges(ranges: Array<{ start: number; end: number }>): Promise<void>;
  dispose(): void;
}

export interface ContextLike {
  readonly contextSize: number;
  getSequence(): SequenceLike;
  dispose(): Promise<void>;
}

export interface ModelLike {
  readonly trainContextSize: number;
  readonly size: number;
  readonly gpuLayers: number;
  readonly tokenizer: unknown;
  readonly tokens: { readonly eos: Token | null; readonly eot: Token | null };
  readonly fileInfo: { metadata?: { general?: { architecture?: string; name?: string } } };
  readonly fileInsights: {
    estimateContextResourceRequirements(options: { contextSize: number; modelGpuLayers: number; sequences?: number }): { cpuRam: number; gpuVram: number };
  };
  tokenize(text: string, specialTokens?: boolean, options?: 'trimLeadingSpace'): Token[];
  detokenize(tokens: readonly Token[], specialTokens?: boolean, lastTokens?: readonly Token[]): string;
  isEogToken(token: Token): boolean;
  createContext(options: { contextSize?: number | { min?: number; max?: number }; sequences?: number; threads?: number; flashAttention?: boolean }): Promise<ContextLike>;
  dispose(): Promise<void>;
}

export interface LlamaLike {
  readonly gpu: string | false;
  readonly cpuMathCores: number;
  loadModel(options: { modelPath: string; gpuLayers?: 'auto' | number }): Promise<ModelLike>;
  getRamState(): Promise<{ total: number; free: number }>;
  getVramState(): Promise<{ total: number; free: number }>;
  dispose(): Promise<void>;
}

/** The module's exports reika uses. */
export interface NodeLlamaCpp {
  getLlama(options: {
    build: 'never';
    gpu: 'auto' | false | 'cuda' | 'vulkan' | 'metal';
    logLevel?: 'disabled' | 'fatal' | 'error' | 'warn' | 'info' | 'log' | 'debug';
    logger?: (level: string, message: string) => void;
    progressLogs?: boolean;
    skipDownload?: boolean;
    maxThreads?: number;
  }): Promise<LlamaLike>;
  resolveChatWrapper(model: ModelLike, options?: { type?: 'auto' | 'jinjaTemplate'; warningLogs?: boolean }): ChatWrapperLike;
  LlamaText: { (...values: unknown[]): LlamaTextLike; fromJSON(json: unknown): LlamaTextLike };
  SpecialTokensText: new (value: string) => unknown;
  LlamaGrammar: new (llama: LlamaLike, options: { grammar: string }) => GrammarLike;
  LlamaJsonSchemaGrammar: new (llama: LlamaLike, schema: unknown) => GrammarLike;
  LlamaGrammarEvaluationState: new (options: { model: ModelLike; grammar: GrammarLike }) => GrammarStateLike;
  InsufficientMemoryError: new (...args: never[]) => Error;
  getModuleVersion?: () => Promise<string>;
}
