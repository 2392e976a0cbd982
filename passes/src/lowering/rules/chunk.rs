use super::common::split_like_results;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.chunk.default", |c| {
    split_like_results(c, c.args.tensor("self")?, c.args.int("dim")?)
})];
