use super::to::convert;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten._to_copy.default", convert)];
