//! `aten.logaddexp2`: `max(a, b) + log1p(2^-|a - b|) * log2(e)`, written out with elementwise ops (stable for
//! large operands; the log1p corrected for the rounding of `1 + e`). Equal infinite operands give that
//! infinity, as in torch, and NaN propagates.

use super::logaddexp_common::logaddexp;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.logaddexp2.default", |c| logaddexp(c, true)).samples(&[
    "self: T[2,3]; other: T[2,3]",
    "self: T[2,3]; other: T[3]",
    "self: T[]; other: T[]",
])];
