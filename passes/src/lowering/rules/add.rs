use super::common::binary_alpha;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.add.Tensor", |c| binary_alpha(c, "Add")),
    Rule::custom("aten.add.Scalar", |c| binary_alpha(c, "Add")),
];
