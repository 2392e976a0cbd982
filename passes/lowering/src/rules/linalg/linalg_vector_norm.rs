use crate::Rule;
use super::vector_norm_common::linalg_vector_norm;

pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_vector_norm.default", linalg_vector_norm)
    .samples(&[
        "self: T[3,4]",
        "self: T[3,4]; ord: 1; dim: [1]",
        "self: T[2,3,4]; ord: 3; dim: [0,2]; keepdim: true",
        "self: T[3,4]; ord: inf; dim: [-1]",
        "self: T[3,4]; ord: -inf; dim: [0]",
        "self: T[3,4]; ord: 0",
        "self: T[3,4]; ord: 0.5; dim: [1]",
        "self: T[3,4]; ord: -2; dim: [1]",
        "self: T[]",
        "self: T[]; ord: inf",
        "self: T[0,3]; dim: [0]",
        "self: T[3,4]; dtype: dtype(f64)",
    ])
    .dtypes(&["f32", "f64"])
    ];
