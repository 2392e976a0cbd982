use super::common::binary_alpha;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.sub.Tensor", |c| binary_alpha(c, "Sub")),
    Rule::custom("aten.sub.Scalar", |c| binary_alpha(c, "Sub")),
];
