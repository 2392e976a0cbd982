//! `aten.i0`: the modified Bessel function of order 0 by Abramowitz & Stegun 9.8.1 (|x| <= 3.75) and 9.8.2
//! (above), written out in float64 and cast to the result type (ONNX has no Bessel functions).

use super::special_common::i0_rule;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.i0.default", i0_rule)
    .samples(&["self: T[2,3]", "self: i64[2,5]{-20..20}", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64"])];
