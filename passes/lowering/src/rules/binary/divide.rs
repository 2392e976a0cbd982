use super::alias_common::same_as;
use crate::Rule;

/// `torch.divide` is `torch.div`.
pub const RULES: &[Rule] = &[
    Rule::custom("aten.divide.Tensor", |c| same_as(c, "aten.div.Tensor"))
        .samples(&["self: T[2,3]; other: T[3]{pos}", "self: T[2,3]; other: 2"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.divide.Scalar", |c| same_as(c, "aten.div.Scalar")).samples(&["self: T[2,3]; other: 4"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.divide.Tensor_mode", |c| same_as(c, "aten.div.Tensor_mode"))
        .samples(&["self: T[2,3]; other: T[3]{pos}; rounding_mode: \"floor\"", "self: T[2,3]; other: T[3]{pos}; rounding_mode: \"trunc\""]).dtypes(&["f32", "f16", "bf16", "f64"]),
];
