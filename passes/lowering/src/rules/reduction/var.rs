//! `aten.var` (`.default`, `.dim`, `.correction`): `sum((x - mean)^2) / max(N - correction, 0)` over `dim` (all
//! dims when None or empty), written out with `ReduceMean` / `ReduceSum`; `unbiased` is a correction of 1 or 0.
//! N is read at run time over dynamic dims; no degrees of freedom left gives NaN or inf, as in torch.

use crate::Rule;
use super::var_common::{variance, variance_all};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.var.default", |c| variance_all(c, false))
        .samples(&["self: T[3,5]", "self: T[3,5]; unbiased: false", "self: T[1]", "self: T[]", "self: T[0]", "self: T[2,0,3]; unbiased: false"])
        .dtypes(&["f32", "f64", "f16", "bf16"]),
    Rule::custom("aten.var.dim", |c| variance(c, false))
        .samples(&["self: T[3,5]; dim: [1]", "self: T[3,5]; dim: [0]; unbiased: false; keepdim: true"]).dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.var.correction", |c| variance(c, false)).samples(&[
        "self: T[3,5]; dim: [1]",
        "self: T[3,5]; dim: [0]; correction: 0; keepdim: true",
        "self: T[2,3,4]; dim: [1,2]",
        "self: T[3,4]",
        "self: T[]; dim: [0]; correction: 0; keepdim: true",
        "self: T[]; dim: [-1]",
        "self: T[3,4]; dim: []",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
];
