#!/usr/bin/env bash
# Benchmark (not a test): peak RSS of `aten-translate --from-pt2` on a program
# whose weights total ~200 MB versus the small bundled MLP. The importer never
# reads weight bytes (they stay in the mmapped archive), so the difference
# should be a few MB, not hundreds.
#   bash tools/bench/bench-import-rss.sh [MB]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
source tools/env.sh
MB="${1:-200}"
LARGE="${TMPDIR:-/tmp}/aten2onnx-large-${MB}mb.pt2"
[ -f "$LARGE" ] || .venv/bin/python tools/bench/make_large_pt2.py "$LARGE" --mb "$MB"
cargo build --release --bin aten-translate -q
BIN=target/release/aten-translate
peak() { /usr/bin/time -f "%M" "$BIN" --from-pt2 "$1" -o /dev/null 2>&1 >/dev/null | tail -1; }
small=$(peak tests/fixtures/mlp.pt2)
large=$(peak "$LARGE")
size=$(stat -c %s "$LARGE")
echo "archive: $LARGE ($((size / 1024 / 1024)) MiB)"
echo "peak RSS, mlp.pt2:        $((small / 1024)) MiB"
echo "peak RSS, large archive:  $((large / 1024)) MiB"
echo "difference:               $(((large - small) / 1024)) MiB"
