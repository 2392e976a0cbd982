//! `aten.nll_loss_nd`: `-weight[t] * x[n, t, ...]` (`GatherElements` on the class dim), 0 where
//! `t == ignore_index`, for any number of trailing dims. Reduction none, sum, or mean divided by the summed
//! weights of the kept targets (torch's weighted mean); a 1-D `self` is one unbatched sample.

use crate::Rule;
use super::nll_common::nll_rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.nll_loss_nd.default", |c| Ok(vec![nll_rule(c)?.0])).samples(&[
    "self: T[4,3]; target: i64[4]{0..3}",
    "self: T[4,3]; target: i64[4]{0..3}; weight: T[3]{pos}; reduction: 0",
    "self: T[4,3]; target: i64[4]{-1..3}; weight: T[3]{pos}; ignore_index: -1",
    "self: T[4,3]; target: i64[4]{0..3}; reduction: 2; ignore_index: 1",
    "self: T[3]; target: i64[]{0..3}",
    "self: T[3]; target: i64[]{0..3}; reduction: 0",
    "self: T[2,3,4,5]; target: i64[2,4,5]{0..3}; weight: T[3]{pos}",
    "self: T[2,3,4]; target: i64[2,4]{0..3}; reduction: 0; ignore_index: 2",
])];
