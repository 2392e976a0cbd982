//! `aten.nll_loss2d`: `-weight[t] * x[n, t, h, w]` (`GatherElements` on the class dim), 0 where
//! `t == ignore_index`; reduction none, sum, or mean divided by the summed weights of the kept targets
//! (torch's weighted mean).

use super::nll_common::nll_rule;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.nll_loss2d.default", |c| Ok(vec![nll_rule(c)?.0])).samples(&[
    "self: T[2,3,4,2]; target: i64[2,4,2]{0..3}",
    "self: T[2,3,4,2]; target: i64[2,4,2]{-1..3}; weight: T[3]{pos}; reduction: 0; ignore_index: -1",
    "self: T[2,3,4,5]; target: i64[2,4,5]{0..3}; weight: T[3]{pos}; reduction: 2",
])];
