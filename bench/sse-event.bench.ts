import { performance } from 'node:perf_hooks';
import { mapChunk } from '../actors/model-io/calls/map-chunk.js';
import { SseDecoder } from '../actors/model-io/http/sse-decoder.js';
import { splitBytes } from '../test/helpers/scripted-server.js';
import { fmt, row } from './stats.js';

// SSE decoding is linear in the size of an event: one 10 MB event against the same
// bytes as 160 events of 64 KB, both fed in the 64 KB chunks a socket delivers. Decoding alone (the
// acceptance figure, target ≤ ×2), and decoding plus JSON.parse and mapping of each event.

const MB = 1024 * 1024;

function streams(): { one: Buffer[]; many: Buffer[] } {
  const one = Buffer.from(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'x'.repeat(10 * MB) }, finish_reason: null }] })}\n\n`);
  const piece = JSON.stringify({ choices: [{ index: 0, delta: { content: 'x'.repeat(64 * 1024) }, finish_reason: null }] });
  const many = Buffer.from(Array.from({ length: 160 }, () => `data: ${piece}\n\n`).join(''));
  return { one: splitBytes(one, { mode: 'fixed', size: 64 * 1024 }), many: splitBytes(many, { mode: 'fixed', size: 64 * 1024 }) };
}

function time(chunks: Buffer[], parse: boolean): number {
  const start = performance.now();
  const decoder = new SseDecoder();
  let chars = 0;
  for (const chunk of chunks) {
    for (const event of decoder.push(chunk)) {
      if (!parse) chars += event.data.length;
      else for (const delta of mapChunk(JSON.parse(event.data))) if (delta.kind === 'text') chars += delta.text.length;
    }
  }
  if (chars < 10 * MB) throw new Error('decoded too little');
  return performance.now() - start;
}

/** Median of `runs`, the two streams interleaved so the machine's noise falls on both. */
function median(runs: number, chunks: { one: Buffer[]; many: Buffer[] }, parse: boolean): { one: number; many: number } {
  const one: number[] = [];
  const many: number[] = [];
  for (let r = 0; r < runs; r++) {
    one.push(time(chunks.one, parse));
    many.push(time(chunks.many, parse));
  }
  const mid = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { one: mid(one), many: mid(many) };
}

export default async function (): Promise<void> {
  const chunks = streams();
  const rssBefore = process.memoryUsage().rss;
  const decode = median(9, chunks, false);
  const full = median(5, chunks, true);
  const rssAfter = process.memoryUsage().rss;
  console.log('10 MB as one SSE event vs 160 events of 64 KB, fed in 64 KB chunks; medians of interleaved runs');
  row('decode one 10 MB event', `${fmt(decode.one)} ms`, `${fmt(decode.many)} ms`, decode.one / decode.many, '≤ ×2');
  row('decode + JSON.parse + map, one 10 MB event', `${fmt(full.one)} ms`, `${fmt(full.many)} ms`, full.one / full.many);
  console.log(`RSS growth over the runs: ${fmt((rssAfter - rssBefore) / MB)} MB`);
}
