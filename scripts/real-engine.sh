#!/usr/bin/env bash
# Builds what the real-engine tests need (test/cli/real-engine-compaction.test.ts), outside the repo:
#   a llama-server from node-llama-cpp's bundled llama.cpp, and a tiny random-weight qwen2 GGUF with
#   Qwen2's real tokenizer and Qwen2.5's chat template (scripts/tiny-qwen2-gguf.py, numpy needed).
# Usage: scripts/real-engine.sh [DIR]   (default ~/.cache/reika-real-engine; ~15 min on 2 busy cores)
# Then:  export REIKA_LLAMA_SERVER=DIR/llama.cpp/build/bin/llama-server REIKA_TINY_GGUF=DIR/tiny-qwen2.gguf
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$HOME/.cache/reika-real-engine}
bundle=$here/node_modules/node-llama-cpp/llama/gitRelease.bundle
[ -f "$bundle" ] || { echo "no $bundle: npm install first (node-llama-cpp is a dev dependency)" >&2; exit 1; }
mkdir -p "$dir"
[ -d "$dir/llama.cpp/.git" ] || git clone -q "$bundle" "$dir/llama.cpp"
cd "$dir/llama.cpp"
nice -n 10 cmake -B build -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
nice -n 10 cmake --build build --target llama-server -j"$(nproc)"
python3 "$here/scripts/tiny-qwen2-gguf.py" "$dir/llama.cpp" "$dir/tiny-qwen2.gguf"
echo "export REIKA_LLAMA_SERVER=$dir/llama.cpp/build/bin/llama-server REIKA_TINY_GGUF=$dir/tiny-qwen2.gguf"
