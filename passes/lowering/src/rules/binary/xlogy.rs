//! `aten.xlogy` (`.Tensor`, `.Scalar_Self`, `.Scalar_Other`): `x * Log(y)` in the float result type, 0 where
//! `x == 0` (even for `y` 0 or inf) and NaN where `y` is NaN, as in torch.

use super::elementwise_common::xlogy;
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.xlogy.Tensor", xlogy)
        .samples(&[
            "self: T[2,3]; other: T[2,3]{pos}",
            "self: T[2,3]{0..2}; other: T[3]",
            "self: T[]; other: T[2]{pos}",
            "self: T[0,3]; other: T[3]",
        ])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.xlogy.Scalar_Self", xlogy)
        .samples(&["self: 2.0; other: T[2,3]{pos}", "self: 0; other: T[2,3]"])
        .dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.xlogy.Scalar_Other", xlogy)
        .samples(&["self: T[2,3]; other: 2.5", "self: T[2,3]; other: 0"])
        .dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"]),
];
