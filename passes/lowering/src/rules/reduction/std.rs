//! `aten.std` (`.default`, `.dim`, `.correction`): `sqrt(sum((x - mean)^2) / max(N - correction, 0))` over `dim`
//! (all dims when None or empty), written out with `ReduceMean` / `ReduceSum`; `unbiased` is a correction of 1
//! or 0. N is read at run time over dynamic dims; no degrees of freedom left gives NaN or inf, as in torch.

use super::var_common::{variance, variance_all};
use crate::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.std.default", |c| variance_all(c, true))
        .samples(&["self: T[3,5]", "self: T[3,5]; unbiased: false", "self: T[1]", "self: T[]", "self: T[0]"])
        .dtypes(&["f32", "f64", "f16", "bf16"]),
    Rule::custom("aten.std.dim", |c| variance(c, true)).samples(&["self: T[3,5]; dim: [1]; unbiased: false"]).dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.std.correction", |c| variance(c, true))
        .samples(&[
        "self: T[3,5]; dim: [1]",
        "self: T[3,5]; dim: [0]; correction: 0; keepdim: true",
        "self: T[]; dim: [0]; correction: 0",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
];
