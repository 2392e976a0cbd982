use super::triu::trilu;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.tril.default", |c| trilu(c, 0))];
