use super::nll_common::nll_rule;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.nll_loss.default", |c| Ok(vec![nll_rule(c)?.0])).samples(&[
    "self: T[4,3]; target: i64[4]{0..3}",
    "self: T[4,3]; target: i64[4]{-1..3}; weight: T[3]{pos}; reduction: 0; ignore_index: -1",
    "self: T[5,3]; target: i64[5]{0..3}; weight: T[3]{pos}; reduction: 2",
])];
