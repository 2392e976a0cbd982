//! The archive reader on arbitrary bytes: ZIP directory, layout, JSON, weight
//! metadata. Opening must return Ok or Err, never panic, hang or read out of
//! bounds; on Ok every weight and constant must be readable or refused.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(archive) = aten2onnx_pt2::Archive::from_bytes("fuzz.pt2", data.to_vec()) else { return };
    let weights: Vec<String> = archive.weight_names().map(str::to_string).collect();
    for name in &weights {
        if let Ok(tensor) = archive.weight(name) {
            std::hint::black_box((tensor.numel(), tensor.storage.len()));
        }
    }
    let constants: Vec<String> = archive.constant_names().map(str::to_string).collect();
    for name in &constants {
        if let Ok(tensor) = archive.constant(name) {
            std::hint::black_box((tensor.numel(), tensor.storage.len()));
        }
    }
    std::hint::black_box(archive.program().graph().nodes.len());
});
