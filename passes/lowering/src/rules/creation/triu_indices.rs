use super::triangle_common::indices;
use crate::Rule;

/// The upper triangle's indices (tril_indices.rs).
pub const RULES: &[Rule] = &[Rule::custom("aten.triu_indices.default", |c| indices(c, false))
    .samples(&[
        "row: 3; col: 3",
        "row: 4; col: 3; offset: 1",
        "row: 3; col: 5; offset: -1",
        "row: 0; col: 3",
        "row: 3; col: 3; offset: 5",
        "row: 2; col: 6; offset: -10",
    ])
    .dtypes(&["i64"])];
