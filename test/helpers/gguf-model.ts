import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { encodeGguf, type GgufTensor, type GgufValue } from './gguf.js';
import { trainBpe } from './gguf-vocab.js';

/**
 * A tiny random-weight model of the `llama` architecture, written as a real GGUF that llama.cpp
 * loads and runs: 2 blocks, 64-wide, a byte-level BPE vocabulary of ~1,800 tokens learnt from
 * prompt-like text, and a real chat template (Qwen2.5's, with tools, by default). Its text is
 * noise; what it is for is everything around the weights: loading, the template, tokenising,
 * the KV cache, grammar-constrained generation, abort.
 */

export interface TinyModelOptions {
  /** A jinja chat template (default: Qwen2.5-7B-Instruct's, from test/fixtures/chat-templates). */
  chatTemplate?: string;
  /** Text the vocabulary is learnt from (default: {@link DEFAULT_CORPUS}); more text, shorter prompts. */
  corpus?: string;
  /** BPE merges to learn (default 1,500). */
  merges?: number;
  /** The trained context (`llama.context_length`, default 32,768). */
  contextLength?: number;
  /** Weights come from this seed (default 1): the same options give the same bytes. */
  seed?: number;
  /** Leave out a required tensor, for the "unsupported or broken model" errors. */
  omitTensor?: string;
  /** Write this as `general.architecture` instead of `llama` (an architecture llama.cpp lacks, say). */
  architecture?: string;
}

export const TINY_DIMS = { embedding: 64, blocks: 2, heads: 2, kvHeads: 2, feedForward: 128 } as const;

const TEMPLATES = new URL('../../../test/fixtures/chat-templates/', import.meta.url);

/** A real template from the repo's fixtures, by file name. */
export function fixtureTemplate(name: string): string {
  return readFileSync(new URL(name, TEMPLATES), 'utf8');
}

/** Specials of the Qwen2.5 family; the template's markers must be single tokens. */
const SPECIALS: Array<{ text: string; type: number }> = [
  { text: '<|endoftext|>', type: 3 },
  { text: '<|im_start|>', type: 3 },
  { text: '<|im_end|>', type: 3 },
  { text: '<tool_call>', type: 4 },
  { text: '</tool_call>', type: 4 },
  { text: '<think>', type: 4 },
  { text: '</think>', type: 4 },
];

/** Prompt-like text: what reika's requests are made of (instructions, JSON schemas, paths, code). */
export const DEFAULT_CORPUS = [
  'You are reika, a coding agent working in the user\'s project through tools. You read, edit and run commands until the task is done, then answer briefly.',
  '# Rules\n- Read before you edit. `edit` replaces exactly one occurrence of old_string: include enough surrounding lines to make it unique.',
  '- Paths are relative to the project root or absolute.\n- Each tool result starts with a one-line summary. Older outputs may later be shortened to that summary to save context: run the tool again if you need the content back.',
  '- Call one tool at a time unless the calls are independent. Do not repeat a call that gave the same result before.\n- If a tool reports an error, read the error and change your approach instead of retrying the same call.',
  '# Project\nroot: /tmp/project\nfiles: 3 indexed\n# Repo map\nsrc/index.ts: main, parse, format\nREADME.md\npackage.json',
  '{"type": "function", "function": {"name": "read", "description": "Read a file of the project, with line numbers.", "parameters": {"type": "object", "properties": {"path": {"type": "string", "description": "The file path."}, "offset": {"type": "integer", "description": "First line."}, "limit": {"type": "integer"}}, "required": ["path"], "additionalProperties": false}}}',
  '{"type": "function", "function": {"name": "edit", "description": "Replace one occurrence of old_string with new_string in a file.", "parameters": {"type": "object", "properties": {"path": {"type": "string"}, "old_string": {"type": "string"}, "new_string": {"type": "string"}}, "required": ["path", "old_string", "new_string"]}}}',
  '{"name": "bash", "arguments": {"command": "npm test", "timeout": 120}} {"name": "grep", "arguments": {"pattern": "function", "path": "src"}} {"name": "write", "arguments": {"path": "notes.txt", "content": "hello"}} {"name": "list"} {"name": "glob"}',
  '# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:',
  'export function main(args: string[]): number {\n  const value = parse(args[0]);\n  return value === undefined ? 1 : 0;\n}\n',
  'The tool result: 12 lines read from src/index.ts. Edited notes.txt: replaced 1 occurrence. The task is done: the file was changed and checked.',
].join('\n\n');

/** mulberry32: small, seeded, good enough for weights nobody reads. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The GGUF bytes of a tiny model. */
export function tinyModelBytes(options: TinyModelOptions = {}): Buffer {
  const vocab = trainBpe(options.corpus ?? DEFAULT_CORPUS, options.merges ?? 1500);
  const tokens = [...vocab.tokens, ...SPECIALS.map((s) => s.text)];
  const types = [...vocab.tokens.map(() => 1), ...SPECIALS.map((s) => s.type)];
  const id = (text: string) => tokens.indexOf(text);
  const { embedding: nEmbd, blocks, heads, kvHeads, feedForward: nFf } = TINY_DIMS;
  const headDim = nEmbd / heads;
  const nVocab = tokens.length;
  const rand = random(options.seed ?? 1);
  const weights = (...dims: number[]): Float32Array => {
    const data = new Float32Array(dims.reduce((a, b) => a * b, 1));
    const scale = 1 / Math.sqrt(dims[0]!);
    for (let i = 0; i < data.length; i++) data[i] = (rand() * 2 - 1) * scale;
    return data;
  };
  const ones = (n: number) => new Float32Array(n).fill(1);
  const tensors: GgufTensor[] = [
    { name: 'token_embd.weight', dims: [nEmbd, nVocab], data: weights(nEmbd, nVocab) },
    { name: 'output_norm.weight', dims: [nEmbd], data: ones(nEmbd) },
    { name: 'output.weight', dims: [nEmbd, nVocab], data: weights(nEmbd, nVocab) },
  ];
  for (let b = 0; b < blocks; b++) {
    tensors.push(
      { name: `blk.${b}.attn_norm.weight`, dims: [nEmbd], data: ones(nEmbd) },
      { name: `blk.${b}.attn_q.weight`, dims: [nEmbd, heads * headDim], data: weights(nEmbd, heads * headDim) },
      { name: `blk.${b}.attn_k.weight`, dims: [nEmbd, kvHeads * headDim], data: weights(nEmbd, kvHeads * headDim) },
      { name: `blk.${b}.attn_v.weight`, dims: [nEmbd, kvHeads * headDim], data: weights(nEmbd, kvHeads * headDim) },
      { name: `blk.${b}.attn_output.weight`, dims: [heads * headDim, nEmbd], data: weights(heads * headDim, nEmbd) },
      { name: `blk.${b}.ffn_norm.weight`, dims: [nEmbd], data: ones(nEmbd) },
      { name: `blk.${b}.ffn_gate.weight`, dims: [nEmbd, nFf], data: weights(nEmbd, nFf) },
      { name: `blk.${b}.ffn_up.weight`, dims: [nEmbd, nFf], data: weights(nEmbd, nFf) },
      { name: `blk.${b}.ffn_down.weight`, dims: [nFf, nEmbd], data: weights(nFf, nEmbd) },
    );
  }
  const u32 = (value: number): GgufValue => ({ type: 'u32', value });
  const metadata: Record<string, GgufValue> = {
    'general.architecture': { type: 'string', value: options.architecture ?? 'llama' },
    'general.name': { type: 'string', value: 'reika-tiny-test' },
    'general.file_type': u32(0),
    'llama.context_length': u32(options.contextLength ?? 32_768),
    'llama.embedding_length': u32(nEmbd),
    'llama.block_count': u32(blocks),
    'llama.feed_forward_length': u32(nFf),
    'llama.attention.head_count': u32(heads),
    'llama.attention.head_count_kv': u32(kvHeads),
    'llama.rope.dimension_count': u32(headDim),
    'llama.rope.freq_base': { type: 'f32', value: 10_000 },
    'llama.attention.layer_norm_rms_epsilon': { type: 'f32', value: 1e-5 },
    'llama.vocab_size': u32(nVocab),
    'tokenizer.ggml.model': { type: 'string', value: 'gpt2' },
    'tokenizer.ggml.pre': { type: 'string', value: 'qwen2' },
    'tokenizer.ggml.tokens': { type: 'string[]', value: tokens },
    'tokenizer.ggml.token_type': { type: 'i32[]', value: types },
    'tokenizer.ggml.merges': { type: 'string[]', value: vocab.merges },
    'tokenizer.ggml.eos_token_id': u32(id('<|im_end|>')),
    'tokenizer.ggml.padding_token_id': u32(id('<|endoftext|>')),
    'tokenizer.ggml.bos_token_id': u32(id('<|endoftext|>')),
    'tokenizer.ggml.add_bos_token': { type: 'bool', value: false },
    'tokenizer.chat_template': { type: 'string', value: options.chatTemplate ?? fixtureTemplate('Qwen-Qwen2.5-7B-Instruct.jinja') },
  };
  return encodeGguf(metadata, tensors.filter((t) => t.name !== options.omitTensor));
}

/** Writes a tiny model to `path` (a `.gguf` file), whole or not at all, and returns the path. */
export function writeTinyModel(path: string, options: TinyModelOptions = {}): string {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, tinyModelBytes(options));
  renameSync(temp, path);
  return path;
}
