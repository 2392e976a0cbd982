use super::common::identity;
use crate::Rule;

/// `+x`: the tensor itself.
pub const RULES: &[Rule] =
    &[Rule::custom("aten.positive.default", identity).samples(&["self: T[2,3]", "self: T[]"]).dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"])];
