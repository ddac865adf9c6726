#!/usr/bin/env python3
"""A tiny random-weight qwen2 GGUF with Qwen2's real tokenizer, for the real-engine compaction test.

Usage: tiny-qwen2-gguf.py LLAMA_SRC OUT.gguf [TEMPLATE.jinja]

LLAMA_SRC is a checkout of llama.cpp (node-llama-cpp ships one as llama/gitRelease.bundle): its
gguf-py writes the file and its models/ggml-vocab-qwen2.gguf gives the tokenizer (151,936 tokens,
the real merges). The chat template is Qwen2.5-7B-Instruct's from LLAMA_SRC/models/templates unless
one is named. The weights are noise (2 blocks, 64 wide): the model is for what the engine does
around them (tokenising, the template, the KV cache and its reuse), never for its text.
"""
import sys
from pathlib import Path

import numpy as np

if len(sys.argv) < 3:
    sys.exit('usage: tiny-qwen2-gguf.py LLAMA_SRC OUT.gguf [TEMPLATE.jinja]')
src = Path(sys.argv[1])
out = Path(sys.argv[2])
template_path = Path(sys.argv[3]) if len(sys.argv) > 3 else src / 'models/templates/Qwen-Qwen2.5-7B-Instruct.jinja'
sys.path.insert(0, str(src / 'gguf-py'))
from gguf import GGUFReader, GGUFWriter, GGMLQuantizationType  # noqa: E402

vocab = GGUFReader(str(src / 'models/ggml-vocab-qwen2.gguf'))


def field(name):
    f = vocab.fields[name]
    return f.contents()


tokens = field('tokenizer.ggml.tokens')
n_vocab = len(tokens)
embd, blocks, heads, kv_heads, ff, ctx = 64, 2, 4, 2, 128, 32768
head_dim = embd // heads

writer = GGUFWriter(str(out), 'qwen2')
writer.add_name('reika-tiny-qwen2')
writer.add_context_length(ctx)
writer.add_embedding_length(embd)
writer.add_block_count(blocks)
writer.add_feed_forward_length(ff)
writer.add_head_count(heads)
writer.add_head_count_kv(kv_heads)
writer.add_rope_freq_base(1_000_000.0)
writer.add_layer_norm_rms_eps(1e-6)
writer.add_file_type(1)
writer.add_tokenizer_model(field('tokenizer.ggml.model'))
writer.add_tokenizer_pre(field('tokenizer.ggml.pre'))
writer.add_token_list(tokens)
writer.add_token_types(field('tokenizer.ggml.token_type'))
writer.add_token_merges(field('tokenizer.ggml.merges'))
writer.add_eos_token_id(field('tokenizer.ggml.eos_token_id'))
writer.add_pad_token_id(field('tokenizer.ggml.padding_token_id'))
writer.add_bos_token_id(field('tokenizer.ggml.bos_token_id'))
writer.add_add_bos_token(False)
writer.add_chat_template(template_path.read_text())

rng = np.random.default_rng(1)


def tensor(name, shape, dtype=np.float32, scale=0.02):
    # gguf-py takes numpy's row-major shape: (rows, columns) = (out, in).
    data = (rng.standard_normal(shape) * scale).astype(dtype)
    writer.add_tensor(name, data)


tensor('token_embd.weight', (n_vocab, embd), np.float16)
writer.add_tensor('output_norm.weight', np.ones(embd, dtype=np.float32))
for b in range(blocks):
    p = f'blk.{b}.'
    writer.add_tensor(p + 'attn_norm.weight', np.ones(embd, dtype=np.float32))
    tensor(p + 'attn_q.weight', (embd, embd))
    tensor(p + 'attn_q.bias', (embd,))
    tensor(p + 'attn_k.weight', (kv_heads * head_dim, embd))
    tensor(p + 'attn_k.bias', (kv_heads * head_dim,))
    tensor(p + 'attn_v.weight', (kv_heads * head_dim, embd))
    tensor(p + 'attn_v.bias', (kv_heads * head_dim,))
    tensor(p + 'attn_output.weight', (embd, embd))
    writer.add_tensor(p + 'ffn_norm.weight', np.ones(embd, dtype=np.float32))
    tensor(p + 'ffn_gate.weight', (ff, embd))
    tensor(p + 'ffn_up.weight', (ff, embd))
    tensor(p + 'ffn_down.weight', (embd, ff))

writer.write_header_to_file()
writer.write_kv_data_to_file()
writer.write_tensors_to_file()
writer.close()
print(f'{out}: qwen2, {n_vocab} tokens, {blocks} blocks of {embd}')
