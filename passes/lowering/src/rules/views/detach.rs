use super::common::identity;
use crate::Rule;

/// Layout / autograd only: the value itself.
pub const RULES: &[Rule] = &[Rule::custom("aten.detach.default", identity).samples(&["self: T[2,3]"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];
