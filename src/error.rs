//! The one error type the tools report (exit code 1, message on stderr).

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad `--pass-pipeline` text, unknown pass or bad option.
    #[error("invalid pass pipeline: {0}")]
    Pipeline(String),
    /// The input `.mlir` did not parse; the message holds MLIR's diagnostics.
    #[error("{path}: failed to parse MLIR:\n{diagnostics}")]
    Parse { path: String, diagnostics: String },
    /// A pass failed; the message holds its diagnostics.
    #[error("{path}: pass pipeline failed:\n{diagnostics}")]
    PassFailed { path: String, diagnostics: String },
    /// The input failed the registry verifiers (before any pass ran).
    #[error("{path}: invalid input:\n{diagnostics}")]
    Invalid { path: String, diagnostics: String },
    /// `--verify-diagnostics` found differences.
    #[error("{path}: diagnostics did not match the expected-* annotations:\n{problems}")]
    DiagnosticsMismatch { path: String, problems: String },
    #[error(transparent)]
    Pt2(#[from] aten2onnx_pt2::Error),
    /// The .pt2 program could not be imported into the aten dialect.
    #[error("{path}: {message}")]
    Import { path: String, message: String },
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    /// The module could not be written as an ONNX model.
    #[error("{}: cannot write the ONNX model: {message}", path.display())]
    Export { path: PathBuf, message: String },
    /// The libtorch interpreter could not run the module.
    #[error("interpreter: {0}")]
    Interpreter(String),
    /// `--verify` found outputs beyond tolerance.
    #[error("{0}")]
    Verification(String),
    /// Bad command-line use.
    #[error("{0}")]
    Usage(String),
    /// A feature that is planned but not built yet; never a fake result.
    #[error("{0}")]
    NotImplemented(String),
}
