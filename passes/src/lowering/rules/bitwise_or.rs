use super::common::bitwise;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.bitwise_or.Tensor", |c| bitwise(c, "Or", "BitwiseOr")),
    Rule::custom("aten.__or__.Tensor", |c| bitwise(c, "Or", "BitwiseOr")),
];
