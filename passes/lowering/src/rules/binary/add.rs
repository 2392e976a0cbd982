//! `aten.add` (`.Tensor`, `.Scalar`): ONNX `Add(self, alpha * other)` in the result type. Bools (no ONNX `Add`)
//! are added in int64 and cast back, torch's `a or (alpha and b)`; complex operands add both parts.

use super::common::binary_alpha;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.add.Tensor", |c| binary_alpha(c, "Add"))
        .complex(|c| super::complex_common::add(c, "Add"))
        .complex_samples(&[
            "self: C[2,3]; other: C[2,3]",
            "self: C[2,3]; other: T[3]",
            "self: T[2,1]; other: C[1,4]; alpha: 2",
            "self: C[2,3]; other: 2.5",
        ])
        .samples(&[
            "self: T[2,3]; other: T[3]; alpha: 2",
            "self: T[2,3]; other: T[2,3]",
            "self: T[0,3]; other: T[3]",
            "self: T[2,1]; other: T[1,4]",
            "self: T[2,3]; other: 2",
        ])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.add.Scalar", |c| binary_alpha(c, "Add"))
        .complex(|c| super::complex_common::add(c, "Add"))
        .complex_samples(&["self: C[2,3]; other: 2; alpha: 3"])
        .samples(&["self: T[2,3]; other: 2; alpha: 3", "self: T[0]; other: 1"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
];
