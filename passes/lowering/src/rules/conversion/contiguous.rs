use super::common::identity;
use crate::Rule;

/// Layout / autograd only: the value itself.
pub const RULES: &[Rule] =
    &[Rule::custom("aten.contiguous.default", identity).samples(&["self: T[2,3]"]).dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
