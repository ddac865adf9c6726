import { performance } from 'node:perf_hooks';
import { mapChunk } from '../actors/model-io/calls/map-chunk.js';
import type { ToolSchema } from '../actors/model-io/protocol.js';
import { SseDecoder } from '../actors/model-io/http/sse-decoder.js';
import { streamChat } from '../actors/model-io/http/stream-chat.js';
import { toolIndex } from '../actors/model-io/calls/tool-index.js';
import { TurnAssembler } from '../actors/model-io/calls/turn-assembler.js';
import { splitBytes, startScriptedServer, type ScriptedReply } from '../test/helpers/scripted-server.js';

// Model-IO parse cost on a 1 MB streamed response, beside references measured in the same run:
// - decode + map + assemble (with the text-fallback parser on) vs plain `JSON.parse` of the same
//   `data:` lines: throughput in MB/s and the overhead per chunk;
// - the same stream end to end over real HTTP with `node:http` (what model-io uses) vs the global
//   `fetch` reading the same bytes.

const tools: ToolSchema[] = ['read', 'grep', 'write'].map((name) => ({ type: 'function', function: { name, description: name, parameters: { type: 'object', properties: {} } } }));

function sseStream(targetBytes: number): { bytes: Buffer; lines: string[] } {
  const words = 'the quick brown fox jumps over a lazy dog while reading src/index.ts and grep results {x} <b> → ü'.split(' ');
  const lines: string[] = [];
  let size = 0;
  let i = 0;
  while (size < targetBytes) {
    const piece = `${words[i % words.length]}${i % 17 === 0 ? '\n' : ' '}`;
    const line = JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
    lines.push(line);
    size += line.length + 8;
    i++;
  }
  const text = lines.map((l) => `data: ${l}\n\n`).join('') + 'data: [DONE]\n\n';
  return { bytes: Buffer.from(text), lines };
}

function best(runs: number, fn: () => void): number {
  let min = Infinity;
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    fn();
    min = Math.min(min, performance.now() - start);
  }
  return min;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

export default async function (): Promise<void> {
  const { bytes, lines } = sseStream(1 << 20);
  const mb = bytes.length / (1 << 20);
  const pieces = splitBytes(bytes, { mode: 'random', seed: 1, max: 2048 });
  const index = toolIndex(tools);

  const reference = best(7, () => {
    for (const line of lines) JSON.parse(line);
  });
  const pipeline = best(7, () => {
    const decoder = new SseDecoder();
    const turn = new TurnAssembler(index, () => {}, () => 'id');
    for (const piece of pieces) {
      for (const event of decoder.push(piece)) {
        if (event.data === '[DONE]') continue;
        for (const delta of mapChunk(JSON.parse(event.data))) turn.push(delta);
      }
    }
    turn.finish(false);
  });
  const chunks = lines.length;
  console.log(`stream of ${fmt(mb, 2)} MB, ${chunks} chunks, fed in ${pieces.length} random pieces`);
  console.log(`parse throughput: ${fmt(mb / (pipeline / 1000))} MB/s  | JSON.parse of the same lines: ${fmt(mb / (reference / 1000))} MB/s  | ratio ${fmt(pipeline / reference, 2)}x the reference time`);
  console.log(`per chunk: ${fmt((pipeline / chunks) * 1000, 2)} µs (overhead beyond JSON.parse ${fmt(((pipeline - reference) / chunks) * 1000, 2)} µs)  | JSON.parse alone: ${fmt((reference / chunks) * 1000, 2)} µs`);

  // End to end over HTTP: the same 1 MB, node:http (model-io) vs fetch with the same decoder.
  const reply: ScriptedReply = { raw: bytes.toString('utf8'), split: { mode: 'fixed', size: 16 * 1024 } };
  const server = await startScriptedServer(() => reply);
  try {
    const endpoint = { baseUrl: server.url, model: 'm', requestTimeoutMs: 0 };
    const request = { type: 'chat' as const, endpoint, messages: [{ role: 'user' as const, content: 'x' }], tools };
    const timeHttp = async () => {
      const start = performance.now();
      await streamChat(request, { signal: new AbortController().signal, emit: () => {} });
      return performance.now() - start;
    };
    const timeFetch = async () => {
      const start = performance.now();
      const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ messages: request.messages, stream: true }) });
      const decoder = new SseDecoder();
      const turn = new TurnAssembler(index, () => {}, () => 'id');
      for await (const chunk of response.body!) {
        for (const event of decoder.push(chunk)) if (event.data !== '[DONE]') for (const delta of mapChunk(JSON.parse(event.data))) turn.push(delta);
      }
      turn.finish(false);
      return performance.now() - start;
    };
    let http = Infinity;
    let viaFetch = Infinity;
    for (let r = 0; r < 5; r++) {
      http = Math.min(http, await timeHttp());
      viaFetch = Math.min(viaFetch, await timeFetch());
    }
    console.log(`over HTTP (127.0.0.1): node:http ${fmt(mb / (http / 1000))} MB/s  | fetch ${fmt(mb / (viaFetch / 1000))} MB/s  | ratio ${fmt(http / viaFetch, 2)}x the fetch time`);
  } finally {
    await server.close();
  }
}
