#!/usr/bin/env bash
# Issue 28's measurements in one go, for a before or an after engine (run from the repository
# root, with the project's venv at .venv or PYTHON set):
#
#   bench/memory/precision_matrix.sh after-v3            # -> bench/memory/results/after-v3/
#
# - the correction corpus (both halves) and the hand-written 60-turn chat, 2K/4K/8K;
# - the loopback matrix, scripted and noisy, seeds 1-3, coding + research, 2K/4K/8K, 150
#   turns, one process per size and setting (six at once, nice 5), merged per setting; with
#   ollm-recall beside ollm, for the facts asked with recall (the assistant's too: the ledger no
#   longer carries them, recall answers for them);
# - the code-built checkpoints (the refusing summariser), noisy, seeds 1-3, 2K/4K/8K;
# - a compaction's engine CPU at 32K with 900-word replies (120 turns).
set -euo pipefail
LABEL=${1:?usage: precision_matrix.sh LABEL [OUT_DIR]}
OUT=${2:-bench/memory/results/$LABEL}
PYTHON=${PYTHON:-.venv/bin/python}
BENCH=(nice -n 5 "$PYTHON" -m bench.memory)
PARTS="$OUT/parts"
mkdir -p "$PARTS"

"${BENCH[@]}" --kind corrections --ctx 2048,4096,8192 --label "$LABEL" --out "$OUT"
"${BENCH[@]}" --kind chat --ctx 2048,4096,8192 --label "$LABEL" --out "$OUT"

pids=()
for replies in scripted noisy; do
    for ctx in 2048 4096 8192; do
        "${BENCH[@]}" --loopback --summariser fact-free --replies "$replies" --qa --ctx "$ctx" \
            --turns 150 --seeds 1,2,3 --kinds coding,research --filler short \
            --strategies ollm,ollm-recall \
            --out "$PARTS" --label "$LABEL-$replies-$((ctx / 1024))k" \
            > "$PARTS/$replies-$ctx.log" 2>&1 &
        pids+=($!)
    done
done
"${BENCH[@]}" --loopback --summariser refusing --replies noisy --ctx 2048,4096,8192 --turns 150 \
    --seeds 1,2,3 --kinds coding,research --filler short --strategies ollm --out "$PARTS" \
    --label "$LABEL-refusing" > "$PARTS/refusing.log" 2>&1 &
pids+=($!)
"${BENCH[@]}" --loopback --summariser fact-free --replies scripted --ctx 32768 --turns 120 \
    --seeds 1 --kinds coding --filler xl --strategies ollm --out "$PARTS" \
    --label "$LABEL-cpu-32k" > "$PARTS/cpu-32k.log" 2>&1 &
pids+=($!)
for pid in "${pids[@]}"; do wait "$pid"; done

for replies in scripted noisy; do
    "$PYTHON" -m bench.memory merge "$OUT/matrix-$replies/memory-$LABEL-$replies.json" \
        "$PARTS/memory-$LABEL-$replies-2k.json" "$PARTS/memory-$LABEL-$replies-4k.json" \
        "$PARTS/memory-$LABEL-$replies-8k.json"
done
"$PYTHON" -m bench.memory precision "$OUT/matrix-scripted/memory-$LABEL-scripted.json" \
    "$OUT/matrix-noisy/memory-$LABEL-noisy.json" "$PARTS/memory-$LABEL-refusing.json" \
    "$PARTS/memory-$LABEL-cpu-32k.json" > "$OUT/precision.md"
cat "$OUT/precision.md"
