//! Shared by the targets that link the whole converter: `main` (the system
//! MLIR's static libraries carry an mlir-opt `main`, which the linker would
//! take instead of libFuzzer's, so it is defined here and enters libFuzzer's
//! driver) and the conversion every such target runs.

use std::os::raw::{c_char, c_int};

extern "C" {
    fn LLVMFuzzerRunDriver(
        argc: *mut c_int,
        argv: *mut *mut *mut c_char,
        callback: unsafe extern "C" fn(*const u8, usize) -> c_int,
    ) -> c_int;
    fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> c_int;
}

#[no_mangle]
pub extern "C" fn main(mut argc: c_int, mut argv: *mut *mut c_char) -> c_int {
    // SAFETY: argc/argv come from the C runtime; libFuzzer's driver takes them as such.
    unsafe { LLVMFuzzerRunDriver(&mut argc, &mut argv, LLVMFuzzerTestOneInput) }
}

/// Writes `data` as `input.<extension>` in a per-process scratch dir and
/// runs `--to-onnx` on it. Success or a clean error are fine; a panic, or an
/// error reporting a caught panic ("internal error"), is a crash.
pub fn convert(data: &[u8], extension: &str) {
    let dir = std::env::temp_dir().join(format!("aten2onnx-fuzz-{extension}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let input = dir.join(format!("input.{extension}"));
    std::fs::write(&input, data).expect("write input");
    let output = dir.join("out.onnx");
    let options = aten2onnx::translate::ConvertOptions::default();
    if let Err(e) = aten2onnx::translate::convert(input.to_str().unwrap(), &output, &options) {
        let message = e.to_string();
        assert!(!message.contains("internal error"), "{message}");
    }
    let _ = std::fs::remove_file(&output);
}
