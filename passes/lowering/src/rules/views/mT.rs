use crate::Rule;

/// `x.mT`: the last two dims swapped (a view; rank >= 2).
use super::transpose_common::{swap_last_two};

pub const RULES: &[Rule] = &[Rule::custom("aten.mT.default", swap_last_two)
    .samples(&["self: T[3,4]", "self: T[2,3,4]"])
    .dtypes(&["f32", "i64", "bool"])];
