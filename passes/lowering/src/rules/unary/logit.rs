//! `aten.logit`: `log(x / (1 - x))`, `x` first clamped to `[eps, 1 - eps]` when `eps` is given. float16 and
//! bfloat16 are computed in float32 with each step rounded to the half type, as torch's kernel computes in the
//! half type's own arithmetic.

use super::elementwise_common::logit;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.logit.default", logit)
    .samples(&[
        "self: T[2,3]{pos}",
        "self: T[2,3]",
        "self: T[2,3]; eps: 0.1",
        "self: T[]; eps: 0.000001",
        "self: T[0,3]",
        "self: T[64]{pos}; eps: 0.001",
    ])
    .dtypes(&["f32", "f64", "f16", "bf16"])];
