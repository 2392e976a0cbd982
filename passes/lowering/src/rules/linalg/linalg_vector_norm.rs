//! `aten.linalg_vector_norm`: `sum(|x|^ord)^(1/ord)` over `dim` (all dims when None); ord 2 / 1 as `ReduceL2` /
//! `ReduceL1`, ±inf as the NaN-propagating max / min of `|x|`, 0 as the count of nonzeros. Float inputs only; a
//! 0-d input gives `|x|` for any nonzero ord.

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
