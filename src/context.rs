//! The MLIR context every tool and test uses.

use melior::{
    dialect::{DialectHandle, DialectRegistry},
    Context,
};
use std::sync::Once;

/// Creates a context with the dialects the project uses registered (`func`,
/// and `arith` for `.mlir` inputs and `canonicalize` tests) and unregistered
/// dialects allowed: `aten` and `onnx` ops are generic (unregistered)
/// operations checked by the registry verifiers (`aten-verify`,
/// `onnx-verify`), see docs/dialects.md. Of MLIR's own passes, the generic
/// transforms (`canonicalize`, `cse`, `inline`, `symbol-dce`, ...) are
/// registered. Registering every upstream dialect and pass (GPU, LLVM,
/// SPIR-V, ...) made every binary link all of MLIR: 240 MB, against
/// what the tools actually use.
pub fn create_context() -> Context {
    static PASSES: Once = Once::new();
    // SAFETY: registers MLIR's generic transform passes once, before any
    // pass manager parses a pipeline.
    PASSES.call_once(|| unsafe { mlir_sys::mlirRegisterTransformsPasses() });

    let registry = DialectRegistry::new();
    DialectHandle::func().insert_dialect(&registry);
    DialectHandle::arith().insert_dialect(&registry);
    let context = Context::new_with_registry(&registry, false);
    // Only `func` is loaded up front (the importer builds `func.func`); the
    // other registered dialects load when a parsed module or a pass needs
    // them.
    context.get_or_load_dialect("func");
    context.set_allow_unregistered_dialects(true);
    context
}
