use super::common::identity;
use crate::Rule;

/// Layout / autograd only: the value itself.
pub const RULES: &[Rule] =
    &[Rule::custom("aten.lift_fresh_copy.default", identity).samples(&["self: T[2,3]"]).dtypes(&["f32", "i64"])];
