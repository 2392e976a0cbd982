#!/usr/bin/env bash
# Runs every test: set-up (idempotent), cargo tests (unit, snapshot, registry
# freshness, error paths), then the lit suite through the built tools.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash tools/setup.sh
source tools/env.sh
# The corpus model too large to keep in git is generated (deterministically).
[ -f tests/corpus/resnet18/model.pt2 ] || .venv/bin/python tools/capture_corpus.py --only resnet18
# insta: never write snapshots in CI, fail on any difference.
export INSTA_UPDATE=no
cargo build --workspace --bins
cargo test --workspace --no-fail-fast
ATEN2ONNX_BIN_DIR="$ROOT/target/debug" lit -sv lit-tests
