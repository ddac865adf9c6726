import { apertus } from './apertus.js';
import { commandR, granite, internlm, phi4 } from './wrapped-json.js';
import { deepseek } from './deepseek.js';
import { dsml } from './dsml.js';
import type { Dialect } from './dialect.js';
import { fencedCall, gemmaToolCode } from './fenced.js';
import { functionary } from './functionary.js';
import { functionGemma } from './functiongemma.js';
import { gemma4 } from './gemma4.js';
import { glm } from './glm.js';
import { harmony } from './harmony.js';
import { hermes } from './hermes.js';
import { hunyuan } from './hunyuan.js';
import { bareJson } from './json.js';
import { kimiK2 } from './kimi-k2.js';
import { kimiK3 } from './kimi-k3.js';
import { llama3 } from './llama3.js';
import { minimaxM2 } from './minimax-m2.js';
import { minimaxM3 } from './minimax-m3.js';
import { mistral } from './mistral.js';
import { pythonic, pythonLine } from './pythonic.js';
import { qwen3Coder } from './qwen3-coder.js';
import { step3 } from './step3.js';

/**
 * Every text tool-call family reika reads (SPEC §10), in the order they are tried where openers
 * overlap (GLM before Hermes for `<tool_call>`, Step-3 before DeepSeek for `<｜tool_calls_begin｜>`,
 * markers before bare `{`/`[`). Adding a family is
 * adding its entry here and its recorded examples to test/actors/model-io/dialects/examples.ts.
 */
export const DIALECTS: readonly Dialect[] = [
  glm,
  hermes,
  qwen3Coder,
  llama3,
  mistral,
  minimaxM2,
  minimaxM3,
  dsml,
  step3,
  deepseek,
  kimiK2,
  kimiK3,
  hunyuan,
  apertus,
  functionGemma,
  harmony,
  granite,
  commandR,
  internlm,
  phi4,
  gemma4,
  functionary,
  gemmaToolCode,
  fencedCall,
  pythonic,
  bareJson,
  pythonLine,
];

export function dialectNamed(name: string): Dialect | undefined {
  return DIALECTS.find((dialect) => dialect.name === name);
}
