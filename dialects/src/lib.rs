//! Operator registries for the aten2onnx compiler, with no MLIR dependency.
//!
//! * [`aten`]: every `aten::` overload known to the pinned torch build
//!   (generated from `torch._C._jit_get_all_schemas()` and the op tags);
//! * [`onnx`]: every ONNX operator schema in every domain and version
//!   (generated from `onnx.defs.get_all_schemas_with_history()`);
//! * [`sym`]: the hand-written table of the symbolic-scalar call targets
//!   (`_operator.add`, `torch.sym_max`, `math.ceil`, ...) that torch.export
//!   graphs contain outside the aten namespace.
//!
//! The generated data lives in `aten/generated.rs` and `onnx/generated.rs`;
//! regenerate them with `.venv/bin/python tools/gen_registries.py` (the
//! `freshness` test fails when they are stale).

pub mod aten;
pub mod onnx;
pub mod sym;

/// Version of the `torch` package the ATen registry was generated from.
pub use aten::TORCH_VERSION;
/// Version of the `onnx` package the ONNX registry was generated from.
pub use onnx::ONNX_VERSION;
