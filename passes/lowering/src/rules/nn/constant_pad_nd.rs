//! `aten.constant_pad_nd`: ONNX `Pad` in constant mode, torch's `(begin, end)` pairs (last dim first)
//! reordered to ONNX's begins then ends; negative pads crop, as in torch, and pads may be computed in the
//! graph. Complex tensors are padded in their real view, with a zero value only.

use super::nn_common::pad;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.constant_pad_nd.default", pad)
    .complex(super::complex_common::constant_pad)
    .complex_samples(&["self: C[3,4]; pad: [1,2]", "self: C[2,3,4]; pad: [0,1,2,-1]"])
    .samples(&[
        "self: T[2,3,4]; pad: [1,2]",
        "self: T[2,3,4]; pad: [1,0,2,1]; value: 1.5",
        "self: T[2,5]; pad: [-1,2]",
        "self: T[2,5]; pad: [-2,-1,1,-1]; value: -3.0",
        "self: T[0,5]; pad: [1,2]",
        "self: T[3]; pad: [0,0]",
    ])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "bool"])];
