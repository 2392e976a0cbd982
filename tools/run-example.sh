#!/usr/bin/env bash
# Set-up (idempotent), build, and run the main job on the bundled example:
# import tests/fixtures/mlp.pt2 into the aten dialect, then convert it to ONNX.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash tools/setup.sh
source tools/env.sh
cargo build --release --bins
EXAMPLE="${1:-tests/fixtures/mlp.pt2}"
echo "== aten dialect of $EXAMPLE" >&2
target/release/aten-translate --from-pt2 "$EXAMPLE"
echo "== ONNX conversion" >&2
target/release/aten-translate --to-onnx "$EXAMPLE" -o "${EXAMPLE%.pt2}.onnx"
