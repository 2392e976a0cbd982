//! aten2onnx: a compiler from `torch.export` programs (`.pt2`) to ONNX, built
//! as an MLIR pipeline. This crate holds the shared library code the tools are
//! thin wrappers over: context set-up, pipeline parsing, the `.pt2` importer,
//! and the `aten-opt` driver.
//!
//! Related crates: `aten2onnx-dialects` (op registries generated from torch and
//! onnx), `aten2onnx-pt2` (zero-copy archive reader), `aten2onnx-passes`
//! (one pass a file).

pub mod context;
pub mod diagnostics;
pub mod error;
pub mod export;
pub mod import;
#[cfg(feature = "torch")]
pub mod interp;
pub mod module;
pub mod opt;
pub mod pipeline;
pub mod translate;
#[cfg(feature = "torch")]
pub mod verify;

/// The pipeline `--verify` bisects with: lowering with every replaced value
/// tagged by its node, no folding or merging (so tags survive).
#[cfg(feature = "torch")]
pub fn lowering_trace_pipeline(opset: u32) -> String {
    format!("builtin.module(aten-remove-inplace, convert-aten-to-onnx{{opset={opset} trace=true}}, func.func(dce))")
}

pub use context::create_context;
pub use error::Error;

/// Writes `bytes` to `path` ('-' is stdout) atomically: a temporary file in
/// the same directory renamed into place, so a failure never leaves a partial
/// output file.
pub fn write_output(path: &str, bytes: &[u8]) -> Result<(), Error> {
    use std::io::Write;
    if path == "-" {
        let mut out = std::io::stdout().lock();
        return out
            .write_all(bytes)
            .and_then(|_| out.flush())
            .map_err(|source| Error::Io { path: "<stdout>".into(), source });
    }
    let target = std::path::Path::new(path);
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    let temp = dir.join(format!(
        ".{}.partial-{}",
        target.file_name().and_then(|n| n.to_str()).unwrap_or("out"),
        std::process::id()
    ));
    let result = std::fs::write(&temp, bytes).and_then(|_| std::fs::rename(&temp, target));
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result.map_err(|source| Error::Io { path: target.to_path_buf(), source })
}
