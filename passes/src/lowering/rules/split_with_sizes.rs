use super::common::split_like_results;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.split_with_sizes.default", |c| {
    split_like_results(c, c.args.tensor("self")?, c.args.int("dim")?)
})];
