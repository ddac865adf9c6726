import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ContextManager } from '../actors/context/context-manager.js';
import type { ToolSchema } from '../actors/model-io/protocol.js';
import { TemplateChecker } from '../actors/model-io/template-check/template-checker.js';
import { llamaCppModel, startScriptedServer } from '../test/helpers/scripted-server.js';
import { gitRepo } from '../test/helpers/temp.js';
import { fmt, row, summarize } from './stats.js';

// Knowing the engine must cost the user nothing:
// - spawn → first chat request of `reika -p`, with engine detection on (the default: /v1/models,
//   /props, /slots and the template probe, beside the bootstrap scan) and off
//   (REIKA_DETECT_ENGINE=off), alternating, against a scripted llama-server exposing a real
//   chat template and 4 slots;
// - the template check of a 30k-token request: the worker's render + compare, and what posting
//   the request to the worker costs the main thread.

const mainJs = new URL('../cli/main.js', import.meta.url).pathname;
const templates = new URL('../../test/fixtures/chat-templates/', import.meta.url);
const RUNS = 7;

/** When the run's first chat request reached the server (0: not yet). */
let firstAt = 0;

type Variant = 'on' | 'no-template-check' | 'off';

async function firstRequestMs(cwd: string, url: string, variant: Variant): Promise<number> {
  firstAt = 0;
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [mainJs, '-p', 'say ok'], {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, REIKA_BASE_URL: url, REIKA_MODEL: 'm', REIKA_CONTEXT_WINDOW: '32768', REIKA_SANDBOX: 'off', ...(variant === 'off' ? { REIKA_DETECT_ENGINE: 'off' } : variant === 'no-template-check' ? { REIKA_TEMPLATE_CHECK: 'off' } : {}) },
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0 || !firstAt) throw new Error(`reika -p made no request (exit ${code})`);
  return firstAt - spawnedAt;
}

export default async function (): Promise<void> {
  const template = readFileSync(new URL('Qwen-Qwen3-0.6B.jinja', templates), 'utf8');
  const server = await startScriptedServer(() => {
    firstAt ||= performance.now();
    return { content: 'ok' };
  }, {
    models: [llamaCppModel('m', 32768)],
    props: { default_generation_settings: { n_ctx: 32768, params: {} }, total_slots: 4, chat_template: template, eos_token: '<|im_end|>', build_info: 'b6870' },
    routes: { 'GET /slots': [0, 1, 2, 3].map((id) => ({ id, n_ctx: 32768, is_processing: false })) },
  });
  const tiny = gitRepo({ 'package.json': '{"name":"tiny"}\n', 'src/index.ts': 'export function main() {}\n' });
  const samples: Record<Variant, number[]> = { on: [], 'no-template-check': [], off: [] };
  try {
    for (let i = 0; i < RUNS + 1; i++) {
      for (const variant of ['on', 'no-template-check', 'off'] as const) {
        const ms = await firstRequestMs(tiny, server.url, variant);
        if (i > 0) samples[variant].push(ms);
      }
    }
  } finally {
    await server.close();
  }
  const p50 = (values: number[]) => summarize(values).p50;
  const spread = (values: number[]) => `${fmt(Math.min(...values), 0)}–${fmt(Math.max(...values), 0)}`;
  const off = samples.off;
  row('spawn → first request, detection off (median ms)', fmt(p50(off)), `range ${spread(off)}`, undefined);
  row('… detection on, template probe off', fmt(p50(samples['no-template-check'])), `range ${spread(samples['no-template-check'])}`, p50(samples['no-template-check']) / p50(off), 'within noise');
  row('… detection and template probe on (default)', fmt(p50(samples.on)), `range ${spread(samples.on)}`, p50(samples.on) / p50(off), 'within noise');

  // A 30k-token request: tool results of about 120k characters in all.
  const tools: ToolSchema[] = [{ type: 'function', function: { name: 'read', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string', description: 'file path' } }, required: ['path'] } } }];
  const context = new ContextManager({ system: 'You are reika.', tools, window: 131_072 });
  context.addUser('Read the files.');
  for (let n = 0; n < 30; n++) {
    context.addAssistant('', [{ id: `c${String(n).padStart(8, '0')}`, name: 'read', arguments: { path: `f${n}.ts` }, source: 'native' }]);
    context.addToolResult({ callId: `c${String(n).padStart(8, '0')}`, name: 'read', summary: `read f${n}.ts`, payload: `export const value${n} = ${n}; // a line of code of a typical source file\n`.repeat(53) });
  }
  const { messages, chars } = context.prepare();
  const checker = new TemplateChecker({ template, eosToken: '<|im_end|>' });
  const worker: number[] = [];
  const main: number[] = [];
  try {
    await checker.render('warm', messages, tools);
    for (let i = 0; i < 15; i++) {
      const started = performance.now();
      const pending = checker.render(`bench-${i}`, messages, tools);
      main.push(performance.now() - started);
      worker.push((await pending).ms);
    }
  } finally {
    await checker.close();
  }
  row(`template check of a ${fmt(chars / 4)}-token request, in the worker (median ms)`, fmt(p50(worker)), '50 target', p50(worker) / 50, '< 50');
  row('… its cost on the main thread (posting the messages, median ms)', fmt(p50(main)), '50 target', p50(main) / 50);
}
