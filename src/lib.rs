//! aten2onnx: a compiler from `torch.export` programs (`.pt2`) to ONNX, built
//! as an MLIR pipeline. This crate holds the shared library code the tools are
//! thin wrappers over: context set-up, pipeline parsing, the `.pt2` importer,
//! and the `aten-opt` driver.
//!
//! Related crates: `aten2onnx-dialects` (op registries generated from torch and
//! onnx), `aten2onnx-pt2` (zero-copy archive reader), `aten2onnx-passes`
//! (one pass a file).

pub mod cli;
pub mod context;
pub mod custom_ops;
pub mod diagnostics;
pub mod error;
pub mod export;
pub mod guard;
pub mod import;
#[cfg(feature = "torch")]
pub mod interp;
pub mod module;
pub mod onnx_import;
pub mod opt;
pub mod output;
pub mod pipeline;
pub mod pipeline_spec;
pub mod progress;
pub mod report;
pub mod translate;
#[cfg(feature = "torch")]
pub mod verify;

pub use context::create_context;
pub use error::Error;

/// Writes `bytes` to `path` ('-' is stdout) atomically: a temporary file in
/// the same directory renamed into place, so a failure never leaves a partial
/// output file (symlinks write through, device nodes are written to; see
/// [`output`]).
pub fn write_output(path: &str, bytes: &[u8]) -> Result<(), Error> {
    output::write_output(path, bytes)
}
