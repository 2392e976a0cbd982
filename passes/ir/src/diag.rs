//! Reporting problems as MLIR diagnostics, so that `aten-opt` prints them with
//! their source position and `--verify-diagnostics` can match them.

use melior::ir::{operation::OperationLike, Location, OperationRef};
use mlir_sys as sys;
use std::ffi::CString;

/// Emits an error attached to `location`.
pub fn error_at(location: Location<'_>, message: &str) {
    let text = CString::new(message.replace('\0', " ")).expect("no interior NUL");
    unsafe { sys::mlirEmitError(location.to_raw(), text.as_ptr()) }
}

/// Emits an error at `op`'s location, prefixed with the op name like MLIR's own
/// verifier does (`'aten.add.Tensor' op ...`).
pub fn op_error(op: OperationRef<'_, '_>, message: &str) {
    error_at(op.location(), &format!("'{}' op {}", crate::ir::op_name(op), message));
}
