//! `aten.pdist`: the p-norm distances of the rows `i < j` of `[N, M]` in row-major order: the full `[N, N]`
//! distance matrix, flattened and gathered at the constant indices `i * N + j` (N must be static).

use super::distance_common::pdist;
use crate::Rule;

pub const RULES: &[Rule] =
    &[Rule::custom("aten.pdist.default", pdist).samples(&["self: T[4,3]", "self: T[5,2]; p: 1.0"])];
