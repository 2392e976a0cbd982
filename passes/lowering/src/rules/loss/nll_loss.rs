//! `aten.nll_loss`: `-weight[t] * x[n, t]` (`GatherElements`), 0 where `t == ignore_index`; reduction none, sum,
//! or mean divided by the summed weights of the kept targets (torch's weighted mean). A 1-D `self` is one
//! unbatched sample.

use super::nll_common::nll_rule;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.nll_loss.default", |c| Ok(vec![nll_rule(c)?.0])).samples(&[
    "self: T[4,3]; target: i64[4]{0..3}",
    "self: T[4,3]; target: i64[4]{-1..3}; weight: T[3]{pos}; reduction: 0; ignore_index: -1",
    "self: T[5,3]; target: i64[5]{0..3}; weight: T[3]{pos}; reduction: 2",
])];
