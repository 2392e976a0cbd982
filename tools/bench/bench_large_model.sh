#!/usr/bin/env bash
# Benchmark (not a test): convert a generated model with several GB of weights
# (more than protobuf's 2 GiB, so the weights go to external data) and report
# wall time and peak RSS of `aten-translate --to-onnx`, against the weight
# bytes and the largest single weight. Weights stream from the mmapped .pt2 to
# the .onnx.data file; peak RSS should stay far below the weight total.
#
#   bash tools/bench/bench_large_model.sh [GB] [WIDTH]     # default 3 GB, width 2048
#
# QUANT=SPEC adds `--quantize-weights SPEC` (e.g. QUANT=int4, with
# TARGET=onnxruntime for MatMulNBits): the quantized weights are computed
# while streaming, so peak RSS should stay as low as the float conversion's.
# BIN=path/to/aten-translate picks the binary (default: target/release if
# built, else target/debug). The archive and the output live in $TMPDIR
# (default /tmp) and are removed at the end unless KEEP=1; nothing is
# committed. The page cache is not counted in RSS (it is reclaimable).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
source tools/env.sh
GB="${1:-3}"
WIDTH="${2:-2048}"
TMP="${TMPDIR:-/tmp}"
LARGE="$TMP/aten2onnx-large-${GB}gb-w${WIDTH}.pt2"
OUT="$TMP/aten2onnx-large-${GB}gb-w${WIDTH}.onnx"
if [ -z "${BIN:-}" ]; then
  if [ -x target/release/aten-translate ]; then BIN=target/release/aten-translate; else BIN=target/debug/aten-translate; fi
fi
[ -f "$LARGE" ] || .venv/bin/python tools/bench/make_large_pt2.py "$LARGE" --mb "$(python3 -c "print($GB * 1000)")" --width "$WIDTH"
rm -f "$OUT" "$OUT.data"
# Drop the archive from the page cache where we may (root), so the run reads it from disk like a first conversion.
sync; (echo 1 > /proc/sys/vm/drop_caches) 2>/dev/null || true
EXTRA=()
[ -n "${QUANT:-}" ] && EXTRA+=(--quantize-weights "$QUANT")
[ -n "${TARGET:-}" ] && EXTRA+=(--target "$TARGET")
stats=$( { /usr/bin/time -f "%M %e" "$BIN" --to-onnx "$LARGE" -o "$OUT" --quiet "${EXTRA[@]}"; } 2>&1 | tail -1 )
read -r peak_kb wall_s <<<"$stats"
archive=$(stat -c %s "$LARGE")
onnx=$(stat -c %s "$OUT")
data=$(stat -c %s "$OUT.data" 2>/dev/null || echo 0)
largest=$(( (WIDTH * WIDTH) * 4 ))
small=$( { /usr/bin/time -f "%M" "$BIN" --to-onnx tests/fixtures/mlp.pt2 -o "$TMP/aten2onnx-mlp-bench.onnx" --quiet; } 2>&1 | tail -1 )
rm -f "$TMP/aten2onnx-mlp-bench.onnx"
echo "binary:                 $BIN"
echo "archive:                $LARGE ($((archive / 1024 / 1024)) MiB)"
echo "output:                 $OUT ($((onnx / 1024)) KiB) + .data ($((data / 1024 / 1024)) MiB)"
echo "largest single weight:  $((largest / 1024 / 1024)) MiB"
echo "wall time:              ${wall_s} s ($(python3 -c "print(f'{$archive / 1e6 / max($wall_s, 1e-9):.0f}')") MB/s of archive)"
echo "peak RSS:               $((peak_kb / 1024)) MiB"
echo "peak RSS, small mlp:    $((small / 1024)) MiB (the binary and MLIR alone)"
echo "peak RSS - small:       $(((peak_kb - small) / 1024)) MiB"
if [ "${KEEP:-0}" != 1 ]; then rm -f "$LARGE" "$OUT" "$OUT.data"; fi
