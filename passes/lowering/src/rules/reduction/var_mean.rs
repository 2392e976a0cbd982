//! `aten.var_mean` (`.correction`, `.default`, `.dim`): the variance `sum((x - mean)^2) / max(N - correction, 0)`
//! and the mean over the same dims (all when None), written out with `ReduceMean` / `ReduceSum`. The mean of an
//! empty reduction is NaN, as in torch.

use super::var_common::{all_with_mean, with_mean};
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.var_mean.correction", |c| with_mean(c, false))
        .samples(&[
            "self: T[3,5]; dim: [1]",
            "self: T[3,5]; dim: [0]; correction: 0; keepdim: true",
            "self: T[2,3,4]; dim: [1,2]",
            "self: T[3,4]",
            "self: T[]; dim: [-1]; correction: 0",
            "self: T[3,4]; dim: []; keepdim: true",
        ])
        .dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.var_mean.default", |c| all_with_mean(c, false))
        .samples(&["self: T[3,5]", "self: T[3,5]; unbiased: false", "self: T[4]", "self: T[0]; unbiased: false"])
        .dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.var_mean.dim", |c| with_mean(c, false))
        .samples(&["self: T[3,5]; dim: [1]", "self: T[3,5]; dim: [0]; unbiased: false; keepdim: true"])
        .dtypes(&["f32", "f16", "bf16", "f64"]),
];
