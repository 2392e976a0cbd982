//! `aten.tril_indices`: the `[2, N]` row and column indices of the lower triangle (`col - row <= offset`) of a
//! `row x col` matrix in row-major order, a constant computed at compile time (every argument is a plain int).
//! Triangles of more than 2^26 elements are refused.

use super::triangle_common::indices;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.tril_indices.default", |c| indices(c, true))
    .samples(&[
        "row: 3; col: 3",
        "row: 4; col: 3; offset: 1",
        "row: 3; col: 5; offset: -1",
        "row: 0; col: 3",
        "row: 3; col: 3; offset: -5",
        "row: 2; col: 6; offset: 10",
    ])
    .dtypes(&["i64"])];
