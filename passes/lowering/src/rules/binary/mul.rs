use super::common::{bitwise, half_opmath_scalar};
use crate::{Ctx, Rule};
use melior::ir::Value;

/// `Mul`; on bools (`a * b` of two masks, as core ATen writes `isfinite`)
/// `And`, ONNX `Mul` having no bool kernel.
pub const RULES: &[Rule] = &[
    Rule::custom("aten.mul.Tensor", mul)
        .complex(super::complex_common::mul)
        .complex_samples(&[
            "self: C[2,3]; other: C[2,3]",
            "self: C[2,3]; other: T[3]",
            "self: T[2,1]; other: C[1,4]",
            "self: C[2,3]; other: 2.5",
            "self: C[]; other: C[2]",
        ])
        .samples(&[
            "self: T[2,3]; other: T[2,3]",
            "self: T[2,3]; other: T[3]",
            "self: T[2,1]; other: T[1,4]",
            "self: T[0,3]; other: T[3]",
            "self: T[2,3]; other: 2.5",
            "self: T[]; other: T[2]",
            // float16/bfloat16 by a number: torch multiplies in float32.
            "self: T[64]; other: 0.044715",
            "self: T[64]; other: f32[]",
        ])
        .dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"]),
    Rule::custom("aten.mul.Scalar", mul)
        .complex(super::complex_common::mul)
        .complex_samples(&["self: C[2,3]; other: 2.5"])
        .samples(&[
            "self: T[2,3]; other: 2.5",
            "self: T[0,3]; other: 2",
            "self: T[]; other: -1.5",
            "self: T[2,3]; other: true",
        ])
        .dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"]),
];

/// A float16/bfloat16 tensor times a number multiplies in float32, as torch
/// does (common::half_opmath_scalar); otherwise `bitwise`.
fn mul<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    match half_opmath_scalar(c, "Mul")? {
        Some(done) => Ok(done),
        None => bitwise(c, "And", "Mul"),
    }
}
