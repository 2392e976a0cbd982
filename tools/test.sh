#!/usr/bin/env bash
# Runs every test: set-up (idempotent), cargo tests (unit, snapshots, registry
# freshness, onnxruntime parity on the corpus and the single-op cases,
# differential tests of every lowering rule against libtorch, error paths),
# then the lit suite through the built tools, then the Python entry point's
# pytest suite (python/tests).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash tools/setup.sh
source tools/env.sh
# The corpus model too large to keep in git is generated (deterministically).
[ -f tests/corpus/resnet18/model.pt2 ] || .venv/bin/python tools/capture_corpus.py --only resnet18
# insta: never write snapshots in CI, fail on any difference.
export INSTA_UPDATE=no
# The default build needs no libtorch; the tests run with the `torch`
# feature (libtorch interpreter, --verify, differential tests of every rule).
cargo build --workspace --bins
cargo test --workspace --features aten2onnx/torch --no-fail-fast
ATEN2ONNX_TORCH=1 ATEN2ONNX_BIN_DIR="$ROOT/target/debug" lit -sv lit-tests
# The Python entry point (python/, docs/python.md): the extension built in the
# dev profile into the shared target dir and installed into .venv (editable),
# with the `torch` feature (verify=True), then its pytest suite.
(cd python && VIRTUAL_ENV="$ROOT/.venv" maturin develop --profile dev --features torch)
.venv/bin/python -m pytest -q python/tests
