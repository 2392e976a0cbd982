//! Helpers for the tests that need the pinned Python environment.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root (parent of the `dialects` package).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

/// `$ATEN2ONNX_PYTHON`, else `<workspace>/.venv/bin/python`, if it exists and
/// can `import torch, onnx`; otherwise prints `skipped: <why>` to stderr and
/// returns `None`.
pub fn python_or_skip(test: &str) -> Option<PathBuf> {
    let python = match std::env::var_os("ATEN2ONNX_PYTHON") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => workspace_root().join(".venv/bin/python"),
    };
    if !python.exists() {
        eprintln!(
            "skipped: {test}: python {} not found (set ATEN2ONNX_PYTHON or run tools/setup.sh)",
            python.display()
        );
        return None;
    }
    match Command::new(&python).args(["-c", "import torch, onnx"]).output() {
        Ok(out) if out.status.success() => Some(python),
        Ok(out) => {
            eprintln!(
                "skipped: {test}: {} cannot `import torch, onnx`: {}",
                python.display(),
                String::from_utf8_lossy(&out.stderr).trim().lines().last().unwrap_or("")
            );
            None
        }
        Err(e) => {
            eprintln!("skipped: {test}: cannot run {}: {e}", python.display());
            None
        }
    }
}
