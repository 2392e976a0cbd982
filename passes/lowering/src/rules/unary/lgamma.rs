//! `aten.lgamma`: `log|Gamma(x)|` written out in float64 and cast to the result type (ONNX has no lgamma).
//! Lanczos for x >= 0.5, the reflection formula below (sin reduced mod 2 so large negative x stay exact); +inf
//! at the poles and at ±inf, NaN stays NaN.

use super::special_common::lgamma_rule;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.lgamma.default", lgamma_rule)
    .samples(&["self: T[2,3]", "self: T[3,4]{pos}", "self: i64[2,5]{-3..40}", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64"])];
