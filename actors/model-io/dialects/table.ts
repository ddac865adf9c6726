import { commandR, granite, internlm, phi4 } from './wrapped-json.js';
import { deepseek } from './deepseek.js';
import type { Dialect } from './dialect.js';
import { fencedCall, gemmaToolCode } from './fenced.js';
import { functionary } from './functionary.js';
import { gemma4 } from './gemma4.js';
import { glm } from './glm.js';
import { harmony } from './harmony.js';
import { hermes } from './hermes.js';
import { bareJson } from './json.js';
import { kimiK2 } from './kimi-k2.js';
import { llama3 } from './llama3.js';
import { mistral } from './mistral.js';
import { pythonic, pythonLine } from './pythonic.js';
import { qwen3Coder } from './qwen3-coder.js';

/**
 * Every text tool-call family reika reads (SPEC §10), in the order they are tried where openers
 * overlap (GLM before Hermes for `<tool_call>`, markers before bare `{`/`[`). Adding a family is
 * adding its entry here and its recorded examples to test/actors/model-io/dialects/examples.ts.
 */
export const DIALECTS: readonly Dialect[] = [
  glm,
  hermes,
  qwen3Coder,
  llama3,
  mistral,
  deepseek,
  kimiK2,
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
