use super::common::rsub;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.rsub.Scalar", rsub), Rule::custom("aten.rsub.Tensor", rsub)];
