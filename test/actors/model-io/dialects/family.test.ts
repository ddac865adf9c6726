import test from 'ava';
import { readFileSync } from 'node:fs';
import { modelFamily } from '../../../../actors/model-io/dialects/family.js';
import { dialectNamed } from '../../../../actors/model-io/dialects/table.js';

const templates = new URL('../../../../../test/fixtures/chat-templates/', import.meta.url);
const template = (file: string) => readFileSync(new URL(file, templates), 'utf8');

test('the family shows in the real chat templates that reveal it, with each engine’s parser name', (t) => {
  t.like(modelFamily({ chatTemplate: template('MiniMax-M2.jinja') }), { name: 'MiniMax-M2', dialect: 'minimax-m2', vllm: 'minimax_m2', sglang: 'minimax-m2', source: 'chat template' });
  t.like(modelFamily({ chatTemplate: template('moonshotai-Kimi-K2.jinja') }), { name: 'Kimi K2', vllm: 'kimi_k2', sglang: 'kimi_k2' });
  t.like(modelFamily({ chatTemplate: template('GLM-4.6.jinja') }), { dialect: 'glm', vllm: 'glm45' });
  t.like(modelFamily({ chatTemplate: template('openai-gpt-oss-120b.jinja') }), { dialect: 'harmony', vllm: 'openai', sglang: 'gpt-oss' });
  t.like(modelFamily({ chatTemplate: template('ByteDance-Seed-OSS.jinja') }), { name: 'Seed-OSS', vllm: 'seed_oss' });
  t.like(modelFamily({ chatTemplate: template('Qwen3-Coder.jinja') }), { dialect: 'qwen3-coder', vllm: 'qwen3_coder' });
  // Templates whose family this table does not name: nothing is claimed.
  for (const file of ['mistralai-Mistral-Nemo-Instruct-2407.jinja', 'NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja', 'meta-llama-Llama-3.1-8B-Instruct.jinja']) t.is(modelFamily({ chatTemplate: template(file) }), undefined, file);
});

test('without a template the model name tells the 2026 families, and every family names a dialect of the table', (t) => {
  const cases: Array<[string, string, string | undefined, string | undefined]> = [
    ['MiniMaxAI/MiniMax-M2.5', 'minimax-m2', 'minimax_m2', 'minimax-m2'],
    ['MiniMaxAI/MiniMax-M3', 'minimax-m3', 'minimax_m3', 'minimax-m3'],
    ['deepseek-ai/DeepSeek-V3.2', 'dsml', 'deepseek_v32', 'deepseekv32'],
    ['deepseek-ai/DeepSeek-V4-Flash', 'dsml', 'deepseek_v4', 'deepseekv4'],
    ['stepfun-ai/step3', 'step3', 'step3', 'step3'],
    ['google/functiongemma-270m-it', 'functiongemma', 'functiongemma', undefined],
    ['tencent/Hy3-preview', 'hunyuan', 'hy_v3', undefined],
    ['swiss-ai/Apertus-8B-Instruct-2509', 'apertus', 'apertus', 'apertus2509'],
    ['moonshotai/Kimi-K3', 'kimi-k3', 'kimi_k3', 'kimi_k3'],
  ];
  for (const [model, dialect, vllm, sglang] of cases) {
    const family = modelFamily({ model });
    t.like(family, { dialect, source: 'model name' }, model);
    t.is(family?.vllm, vllm, model);
    t.is(family?.sglang, sglang, model);
    t.truthy(dialectNamed(family!.dialect), `${model}: ${family!.dialect} is in the table`);
  }
  t.is(modelFamily({ model: 'stepfun-ai/Step-3.5-Flash' }), undefined, 'Step-3.5 is another format');
  t.is(modelFamily({ model: 'Qwen/Qwen3-8B' }), undefined);
});
