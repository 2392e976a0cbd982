#!/usr/bin/env bash
# Runs every test: set-up (idempotent), cargo tests (unit, snapshots, registry
# freshness, onnxruntime parity on the corpus and the single-op cases,
# differential tests of every lowering rule against libtorch, error paths),
# then the lit suite through the built tools, then the Python entry point's
# pytest suite (python/tests).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# Each step's wall time, on stderr at the end (where CI time goes).
TIMES=()
step() {
  local start=$SECONDS
  "$@"
  TIMES+=("$(printf '%5d s  %s' $((SECONDS - start)) "$*")")
}
trap '{ printf "test.sh step times:\n"; printf "  %s\n" "${TIMES[@]}"; } >&2' EXIT
step bash tools/setup.sh
source tools/env.sh
# The corpus model too large to keep in git is generated (deterministically).
[ -f tests/corpus/resnet18/model.pt2 ] || .venv/bin/python tools/capture/capture_corpus.py --only resnet18
# insta: never write snapshots in CI, fail on any difference.
export INSTA_UPDATE=no
# The default build (no libtorch) is the wheel's: built in release, the way
# users get it (tools/build-wheel.sh; python/tests/test_wheel.py installs it
# into a clean venv). The tests run with the `torch` feature (libtorch
# interpreter, --verify, differential tests of every rule); `cargo test`
# builds the tools the lit suite runs, once.
step bash tools/build-wheel.sh
step cargo test --workspace --features aten2onnx/torch --no-fail-fast
step env ATEN2ONNX_TORCH=1 ATEN2ONNX_BIN_DIR="$ROOT/target/debug" lit -sv lit-tests
# The Python entry point (python/, docs/python.md): the extension built in the
# dev profile into the shared target dir and installed into .venv (editable),
# with the `torch` feature (verify=True), then its pytest suite.
step bash -c 'cd python && VIRTUAL_ENV="$0/.venv" maturin develop --profile dev --features torch' "$ROOT"
step .venv/bin/python -m pytest -q python/tests
