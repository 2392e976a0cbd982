//! `aten._pdist_forward`: the p-norm distances of the rows `i < j` of `[N, M]` in row-major order: the full
//! `[N, N]` distance matrix, flattened and gathered at the constant indices `i * N + j` (N must be static).

use super::distance_common::pdist;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten._pdist_forward.default", pdist).samples(&[
    "self: T[4,3]",
    "self: T[5,2]; p: 1.0",
    "self: T[4,3]; p: 0.0",
    "self: T[4,3]; p: inf",
    "self: T[3,3]; p: 3.5",
    "self: T[1,3]",
])];
