//! `aten.logaddexp`: `max(a, b) + log1p(exp(-|a - b|))`, written out with elementwise ops (stable for large
//! operands; the log1p corrected for the rounding of `1 + e`). Equal infinite operands give that infinity, as
//! in torch, and NaN propagates.

use crate::Rule;
use super::logaddexp_common::logaddexp;

pub const RULES: &[Rule] = &[Rule::custom("aten.logaddexp.default", |c| logaddexp(c, false)).samples(&[
    "self: T[2,3]; other: T[2,3]",
    "self: T[2,3]; other: T[3]",
    "self: T[]; other: T[2]",
    "self: T[0,3]; other: T[3]",
]).dtypes(&["f32", "f16", "bf16", "f64"])];
