use super::alias_common::same_as;
use crate::Rule;

/// `torch.subtract` is `torch.sub`.
pub const RULES: &[Rule] = &[
    Rule::custom("aten.subtract.Tensor", |c| same_as(c, "aten.sub.Tensor"))
        .samples(&["self: T[2,3]; other: T[3]; alpha: 2", "self: T[2,3]; other: 1"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
    Rule::custom("aten.subtract.Scalar", |c| same_as(c, "aten.sub.Scalar"))
        .samples(&["self: T[2,3]; other: 2; alpha: 3"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
];
