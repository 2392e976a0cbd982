//! `aten.std_mean` (`.correction`, `.default`, `.dim`): the standard deviation
//! `sqrt(sum((x - mean)^2) / max(N - correction, 0))` and the mean over the same dims (all when None), written
//! out with `ReduceMean` / `ReduceSum`. The mean of an empty reduction is NaN, as in torch.

use super::var_common::{all_with_mean, with_mean};
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.std_mean.correction", |c| with_mean(c, true))
        .samples(&[
            "self: T[3,5]; dim: [1]",
            "self: T[3,5]; dim: [0]; correction: 0; keepdim: true",
            "self: T[3,4]",
            "self: T[]; dim: [-1]",
            "self: T[]; dim: [0]; correction: 0; keepdim: true",
        ])
        .dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.std_mean.default", |c| all_with_mean(c, true))
        .samples(&["self: T[3,5]", "self: T[3,5]; unbiased: false"])
        .dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.std_mean.dim", |c| with_mean(c, true))
        .samples(&["self: T[3,5]; dim: [1]", "self: T[3,5]; dim: [0]; unbiased: false; keepdim: true"])
        .dtypes(&["f32", "f16", "bf16", "f64"]),
];
