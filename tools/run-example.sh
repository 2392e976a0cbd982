#!/usr/bin/env bash
# The main job on a bundled example: set-up (idempotent), build, convert a
# captured model to ONNX, then check the ONNX model in onnxruntime against
# the eager PyTorch outputs recorded at capture time.
#   bash tools/run-example.sh [corpus model name, default: llama]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash tools/setup.sh
source tools/env.sh
cargo build --release --bins
NAME="${1:-llama}"
OUT="target/example/$NAME.onnx"
mkdir -p target/example
echo "== aten-translate --to-onnx tests/corpus/$NAME/model.pt2 -o $OUT" >&2
/usr/bin/time -f "converted in %es, peak RSS %MkB" target/release/aten-translate --to-onnx "tests/corpus/$NAME/model.pt2" -o "$OUT"
echo "== onnxruntime vs eager PyTorch" >&2
.venv/bin/python tools/sweeps/compare_with_eager.py "$OUT" "tests/corpus/$NAME"
