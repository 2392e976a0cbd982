//! The ONNX importer and everything after it: the fuzzer's bytes as an
//! `.onnx` file through `aten-translate --to-onnx` (protobuf wire reader,
//! graph import, verifiers, the onnx optimizer pipeline and the writer),
//! what `--from-onnx` and `--to-onnx` on an `.onnx` input run. Seeds: the
//! ONNX models the tests write and the onnx package's backend node tests.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "whole_pipeline.rs"]
mod whole_pipeline;

fuzz_target!(|data: &[u8]| whole_pipeline::convert(data, "onnx"));
