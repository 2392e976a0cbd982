//! `aten.logsumexp`: `m + log(sum(exp(x - m)))` with `m` the max over `dim`, replaced by 0 where it is infinite
//! (a row of -inf gives -inf, a +inf gives +inf; NaN propagates). Integer inputs are promoted to the float
//! result; an empty `dim` reduces every dim, as in torch.

use super::reduce_common::logsumexp;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.logsumexp.default", logsumexp)
    .samples(&[
        "self: T[2,3]; dim: [1]",
        "self: T[2,3,4]; dim: [0,2]; keepdim: true",
        "self: T[2,3]; dim: [-1]; keepdim: true",
        "self: T[]; dim: [0]",
        "self: i64[2,3]; dim: [1]",
    ])
    .dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];
