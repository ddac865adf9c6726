/**
 * The model family an engine serves, as its chat template (llama.cpp `/props`, Ollama `/api/show`)
 * or else its model name reveals it, with the dialect reika reads its text calls in and the name
 * of each engine's own parser for it (`reika doctor` says which flag makes the engine parse them).
 * Parser names are the engines' registries: vLLM `vllm/tool_parsers/__init__.py`, SGLang
 * `function_call_parser.py` (`ToolCallParserEnum`).
 */
export interface ModelFamily {
  /** For people: `MiniMax-M2`. */
  name: string;
  /** The dialect in `table.ts`. */
  dialect: string;
  /** `--tool-call-parser` values; absent where the engine has none. */
  vllm?: string;
  sglang?: string;
  /** What revealed it. */
  source: 'chat template' | 'model name';
}

interface Entry extends Omit<ModelFamily, 'source'> {
  /** Text only this family's template holds. */
  template: RegExp;
  /** Its model names (Hugging Face ids, GGUF files, Ollama tags). */
  model: RegExp;
}

/** Most specific first: MiniMax-M3's template also holds `<tool_call>`, Step-3's DeepSeek's tokens. */
const FAMILIES: Entry[] = [
  { name: 'MiniMax-M3', dialect: 'minimax-m3', vllm: 'minimax_m3', sglang: 'minimax-m3', template: /\]<\]minimax\[>\[/, model: /minimax[-_]?m3/i },
  { name: 'MiniMax-M2', dialect: 'minimax-m2', vllm: 'minimax_m2', sglang: 'minimax-m2', template: /<minimax:tool_call>/, model: /minimax[-_]?m2/i },
  { name: 'DeepSeek V4', dialect: 'dsml', vllm: 'deepseek_v4', sglang: 'deepseekv4', template: /DSML[｜|]+tool_calls/, model: /deepseek[-_]?v4/i },
  { name: 'DeepSeek V3.2', dialect: 'dsml', vllm: 'deepseek_v32', sglang: 'deepseekv32', template: /DSML/, model: /deepseek[-_]?v3\.?2/i },
  { name: 'Step-3', dialect: 'step3', vllm: 'step3', sglang: 'step3', template: /steptml:invoke/, model: /step-?3(?![.p]5)/i },
  { name: 'FunctionGemma', dialect: 'functiongemma', vllm: 'functiongemma', template: /<start_function_call>/, model: /functiongemma/i },
  { name: 'Hunyuan Hy3', dialect: 'hunyuan', vllm: 'hy_v3', template: /<tool_sep>[\s\S]*<arg_key>|<arg_key>[\s\S]*<tool_sep>/, model: /\bhy-?3\b|hunyuan[-_]?3/i },
  { name: 'Apertus', dialect: 'apertus', vllm: 'apertus', sglang: 'apertus2509', template: /<\|tools_prefix\|>/, model: /apertus/i },
  { name: 'Kimi K3', dialect: 'kimi-k3', vllm: 'kimi_k3', sglang: 'kimi_k3', template: /<\|open\|>(?:tools|call)/, model: /kimi[-_]?k3/i },
  { name: 'Kimi K2', dialect: 'kimi-k2', vllm: 'kimi_k2', sglang: 'kimi_k2', template: /<\|tool_calls_section_begin\|>/, model: /kimi[-_]?k2/i },
  { name: 'GLM-4.5+', dialect: 'glm', vllm: 'glm45', sglang: 'glm45', template: /<arg_key>/, model: /glm-?4\.[5-9]/i },
  { name: 'Seed-OSS', dialect: 'qwen3-coder', vllm: 'seed_oss', template: /<seed:tool_call>/, model: /seed-oss/i },
  { name: 'Qwen3-Coder XML', dialect: 'qwen3-coder', vllm: 'qwen3_coder', sglang: 'qwen3_coder', template: /<function=/, model: /qwen3[-_.]?coder/i },
  { name: 'gpt-oss', dialect: 'harmony', vllm: 'openai', sglang: 'gpt-oss', template: /<\|channel\|>/, model: /gpt-oss/i },
];

/** The family of the model an engine serves, or undefined when nothing reveals one this table knows. */
export function modelFamily(info: { chatTemplate?: string; ollamaTemplate?: string; model?: string; modelPath?: string }): ModelFamily | undefined {
  const template = info.chatTemplate ?? info.ollamaTemplate;
  const pick = ({ template: _t, model: _m, ...family }: Entry, source: ModelFamily['source']): ModelFamily => ({ ...family, source });
  if (template) {
    const found = FAMILIES.find((entry) => entry.template.test(template));
    if (found) return pick(found, 'chat template');
  }
  const names = [info.model, info.modelPath].filter((name): name is string => !!name).join(' ');
  const found = names ? FAMILIES.find((entry) => entry.model.test(names)) : undefined;
  return found ? pick(found, 'model name') : undefined;
}
