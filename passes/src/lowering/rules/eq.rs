use super::common::compare;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.eq.Tensor", |c| compare(c, "Equal", false)),
    Rule::custom("aten.eq.Scalar", |c| compare(c, "Equal", false)),
];
