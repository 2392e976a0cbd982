use super::common::bitwise;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.bitwise_and.Tensor", |c| bitwise(c, "And", "BitwiseAnd")),
    Rule::custom("aten.__and__.Tensor", |c| bitwise(c, "And", "BitwiseAnd")),
];
