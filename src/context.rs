//! The MLIR context every tool and test uses.

use melior::{dialect::DialectRegistry, utility, Context};
use std::sync::Once;

/// Creates a context with the builtin and upstream dialects registered and
/// unregistered dialects allowed: `aten` and `onnx` ops are generic
/// (unregistered) operations checked by the registry verifiers
/// (`aten-verify`, `onnx-verify`), see docs/dialects.md.
pub fn create_context() -> Context {
    static PASSES: Once = Once::new();
    PASSES.call_once(utility::register_all_passes);

    let registry = DialectRegistry::new();
    utility::register_all_dialects(&registry);
    let context = Context::new_with_registry(&registry, false);
    // Only `func` is loaded up front (the importer builds `func.func`); the
    // other registered dialects load when a parsed module or a pass needs
    // them. Loading all of them took 6 ms of every conversion.
    context.get_or_load_dialect("func");
    context.set_allow_unregistered_dialects(true);
    context
}
