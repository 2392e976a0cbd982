//! Rewrite passes over the `aten` and `onnx` dialects, one pass a file.
//!
//! Passes are written in Rust and wrapped as MLIR external passes. MLIR cannot
//! resolve external passes by name inside a pipeline string, so every pass is
//! declared in [`REGISTRY`] with its flag, summary and options; `aten-opt`'s
//! pipeline parser builds project passes from it and hands every other name to
//! MLIR's own registry.

// The layers below, under the names the passes (and the tools) use:
// `aten2onnx-ir` (dialect conventions, IR, type and shape helpers),
// `aten2onnx-lowering` (the lowering rules and decompositions),
// `aten2onnx-optimizer` (the e-graph optimizer). docs/architecture.md.
pub use aten2onnx_ir::{aten_ir, diag, ir, onnx_ir, shape, types};
pub use aten2onnx_lowering::{self as lowering, decompositions};
pub use aten2onnx_optimizer as optimizer;

mod aten_decompose;
mod aten_remove_inplace;
mod aten_verify;
pub mod control_flow;
pub mod convert_aten_to_onnx;
mod dce;
mod onnx_cse;
pub mod onnx_eqsat;
mod onnx_flatten_tokens;
mod onnx_fold_constants;
pub mod onnx_fuse_weights;
mod onnx_qdq_uint8;
pub mod onnx_quantize_weights;
mod onnx_residual_sum;
pub mod onnx_shape_inference;
mod onnx_verify;
pub mod onnx_widen_half;
pub mod onnx_widen_ints;

use melior::{
    ir::{operation::OperationLike, r#type::TypeId, OperationRef},
    pass::{create_external, ExternalPass, Pass, RunExternalPass},
    ContextRef,
};
use std::collections::BTreeMap;

/// Options given to a pass in a pipeline: `pass{key=value other=1}`.
pub type PassOptions = BTreeMap<String, String>;

/// A project pass: runs on one operation, reports problems as MLIR diagnostics
/// (through [`diag`]) and returns `Err(())` when it failed.
pub trait ProjectPass: Clone + 'static {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), ()>;
}

/// One declared option of a pass.
pub struct PassOption {
    pub name: &'static str,
    pub help: &'static str,
}

/// What a pipeline needs to know about a pass.
pub struct PassInfo {
    /// The flag used in pipelines (`aten-verify`).
    pub name: &'static str,
    pub summary: &'static str,
    pub options: &'static [PassOption],
    /// Builds the pass from its options; an error names the bad option.
    pub create: fn(&PassOptions) -> Result<Box<dyn PassFactory>, String>,
}

/// Object-safe handle that turns a configured pass into an MLIR pass.
pub trait PassFactory {
    fn build(&self, verify_after: bool) -> Pass;
}

/// Every project pass, in the order `--list-passes` shows them.
pub static REGISTRY: &[PassInfo] = &[
    aten_verify::INFO,
    onnx_verify::INFO,
    dce::INFO,
    aten_remove_inplace::INFO,
    aten_decompose::INFO,
    convert_aten_to_onnx::INFO,
    onnx_fold_constants::INFO,
    onnx_cse::INFO,
    onnx_shape_inference::INFO,
    onnx_eqsat::INFO,
    onnx_fuse_weights::INFO,
    onnx_qdq_uint8::INFO,
    onnx_quantize_weights::INFO,
    onnx_widen_half::INFO,
    onnx_widen_ints::INFO,
    onnx_residual_sum::INFO,
    onnx_flatten_tokens::INFO,
];

/// Finds a project pass by its pipeline flag.
pub fn lookup(name: &str) -> Option<&'static PassInfo> {
    REGISTRY.iter().find(|info| info.name == name)
}

/// Rejects options a pass does not declare, with the list of those it does.
pub fn check_options(info: &PassInfo, options: &PassOptions) -> Result<(), String> {
    for key in options.keys() {
        if !info.options.iter().any(|o| o.name == key) {
            let known: Vec<_> = info.options.iter().map(|o| o.name).collect();
            return Err(format!(
                "pass '{}' has no option '{}' (options: {})",
                info.name,
                key,
                if known.is_empty() { "none".to_string() } else { known.join(", ") }
            ));
        }
    }
    Ok(())
}

/// Runs the dialect verifiers on `op` (and everything nested in it).
pub fn verify_dialects(op: OperationRef<'_, '_>) -> Result<(), ()> {
    let known = verify_known_dialects(op);
    let aten = aten_verify::verify(op);
    let onnx = onnx_verify::verify(op);
    known.and(aten).and(onnx)
}

/// Every op must be an `aten.*` or `onnx.*` op or an op MLIR has registered
/// (func, builtin, arith, ...): the context allows unregistered dialects
/// only for the project's two.
pub fn verify_known_dialects(op: OperationRef<'_, '_>) -> Result<(), ()> {
    let mut ok = true;
    ir::walk(op, &mut |inner| {
        let name = ir::op_name_cow(inner);
        if name.starts_with(aten_ir::DIALECT_PREFIX) || name.starts_with(onnx_ir::DIALECT_PREFIX) {
            return;
        }
        let registered = unsafe {
            let context = mlir_sys::mlirOperationGetContext(inner.to_raw());
            mlir_sys::mlirContextIsRegisteredOperation(
                context,
                mlir_sys::MlirStringRef { data: name.as_ptr() as *const _, length: name.len() },
            )
        };
        if !registered {
            let dialect = name.split('.').next().unwrap_or("");
            diag::op_error(
                inner,
                &format!("is not an op of a known dialect ('{dialect}'): only aten, onnx and MLIR's registered dialects are accepted"),
            );
            ok = false;
        }
    });
    if ok {
        Ok(())
    } else {
        Err(())
    }
}

/// Wraps a [`ProjectPass`] as an MLIR external pass.
#[derive(Clone)]
struct External<P: ProjectPass> {
    pass: P,
    /// The pass's flag, for messages.
    name: &'static str,
    /// Run the registry verifiers after the pass (on by default in the tools
    /// and in tests, like mlir-opt's `-verify-each`).
    verify_after: bool,
}

impl<'c, P: ProjectPass> RunExternalPass<'c> for External<P> {
    fn initialize(&mut self, _context: ContextRef<'c>) {}

    fn run(&mut self, op: OperationRef<'c, '_>, pass: ExternalPass<'_>) {
        // A panic must not unwind into MLIR (a Rust panic through an
        // `extern "C"` callback aborts the process): it becomes an error
        // diagnostic and a failed pass.
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.pass.run(op).is_ok() && (!self.verify_after || verify_dialects(op).is_ok())
        }));
        let ok = match result {
            Ok(ok) => ok,
            Err(payload) => {
                let message = if let Some(s) = payload.downcast_ref::<&str>() {
                    s.to_string()
                } else if let Some(s) = payload.downcast_ref::<String>() {
                    s.clone()
                } else {
                    "unknown panic".to_string()
                };
                diag::error_at(
                    op.location(),
                    &format!(
                        "internal error in pass '{}' (a bug, please report it with this input): {message}",
                        self.name
                    ),
                );
                false
            }
        };
        if !ok {
            pass.signal_failure();
        }
    }
}

/// Builds the MLIR pass object for a [`ProjectPass`]; `id` must be a distinct
/// static per pass type (MLIR identifies passes by it).
pub(crate) fn external<P: ProjectPass>(pass: P, id: &'static PassId, info: &PassInfo, verify_after: bool) -> Pass {
    create_external(
        External { pass, name: info.name, verify_after },
        TypeId::create(id),
        info.name,
        info.name,
        info.summary,
        "",
        &[],
    )
}

/// Storage whose address identifies a pass type to MLIR.
#[repr(align(8))]
pub struct PassId(#[allow(dead_code)] u8);

impl PassId {
    pub const fn new() -> Self {
        PassId(0)
    }
}

impl Default for PassId {
    fn default() -> Self {
        Self::new()
    }
}

/// A [`PassFactory`] for passes that are plain values.
pub(crate) struct Factory<P: ProjectPass> {
    pub pass: P,
    pub id: &'static PassId,
    pub info: &'static PassInfo,
}

impl<P: ProjectPass> PassFactory for Factory<P> {
    fn build(&self, verify_after: bool) -> Pass {
        external(self.pass.clone(), self.id, self.info, verify_after)
    }
}
