use super::common::compare;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.gt.Tensor", |c| compare(c, "Greater", false)),
    Rule::custom("aten.gt.Scalar", |c| compare(c, "Greater", false)),
];
