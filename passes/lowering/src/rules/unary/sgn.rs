use super::elementwise_common::sign;
use crate::Rule;

/// `sign` for real tensors (sign.rs).
pub const RULES: &[Rule] = &[Rule::custom("aten.sgn.default", sign)
    .samples(&["self: T[2,3]", "self: T[1,4]", "self: T[0,3]", "self: T[]"])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
