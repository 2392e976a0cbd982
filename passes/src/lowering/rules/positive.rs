use super::common::identity;
use crate::lowering::Rule;

/// `+x`: the tensor itself.
pub const RULES: &[Rule] =
    &[Rule::custom("aten.positive.default", identity).samples(&["self: T[2,3]", "self: T[]"]).dtypes(&["f32", "i64"])];
