use super::alias_common::same_as;
use crate::Rule;

/// `torch.multiply` is `torch.mul`.
pub const RULES: &[Rule] = &[
    Rule::custom("aten.multiply.Tensor", |c| same_as(c, "aten.mul.Tensor"))
        .samples(&["self: T[2,3]; other: T[3]", "self: T[2,3]; other: 3"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.multiply.Scalar", |c| same_as(c, "aten.mul.Scalar"))
        .samples(&["self: T[2,3]; other: 2"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
];
