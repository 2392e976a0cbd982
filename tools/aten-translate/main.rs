//! `aten-translate`: see [`aten2onnx::cli::translate`] (the tool is library code, so
//! that the Python package can install it as a command too).

use std::process::ExitCode;

/// mimalloc: much faster than glibc malloc on the pipeline's many small
/// allocations (see the `mimalloc` line in Cargo.toml).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    aten2onnx::cli::translate::main(std::env::args_os())
}
