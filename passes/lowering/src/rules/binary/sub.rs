//! `aten.sub` (`.Tensor`, `.Scalar`): ONNX `Sub(self, alpha * other)` with both operands cast to the result type;
//! complex operands subtract both parts (`complex_common::add`).

use super::common::binary_alpha;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.sub.Tensor", |c| binary_alpha(c, "Sub"))
        .complex(|c| super::complex_common::add(c, "Sub"))
        .complex_samples(&[
            "self: C[2,3]; other: C[2,3]",
            "self: C[2,3]; other: T[3]",
            "self: T[2,1]; other: C[1,4]; alpha: 2",
            "self: C[2,3]; other: 2.5",
        ])
        .samples(&["self: T[2,3]; other: T[3]; alpha: 2", "self: T[2,3]; other: T[2,3]", "self: T[2,3]; other: 1"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
    Rule::custom("aten.sub.Scalar", |c| binary_alpha(c, "Sub"))
        .complex(|c| super::complex_common::add(c, "Sub"))
        .complex_samples(&["self: C[2,3]; other: 2; alpha: 3"])
        .samples(&["self: T[2,3]; other: 2; alpha: 3"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
];
