use super::common::identity;
use crate::lowering::Rule;

/// Layout / autograd only: the value itself.
pub const RULES: &[Rule] = &[Rule::custom("aten.detach.default", identity).samples(&["self: T[2,3]"]).dtypes(&["f32"])];
