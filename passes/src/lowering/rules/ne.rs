use super::common::compare;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.ne.Tensor", |c| compare(c, "Equal", true)),
    Rule::custom("aten.ne.Scalar", |c| compare(c, "Equal", true)),
];
