use super::common::compare;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.lt.Tensor", |c| compare(c, "Less", false)),
    Rule::custom("aten.lt.Scalar", |c| compare(c, "Less", false)),
];
