//! `aten.digamma`: written out in float64 and cast to the result type (ONNX has no digamma): the asymptotic
//! series of `psi(x + 6)` minus `sum 1 / (x + j)` for x >= 0.5, the reflection formula below. As torch: -inf at
//! +0, +inf at -0, NaN at negative integers and -inf.

use crate::Rule;
use super::digamma_common::{digamma_rule};

pub const RULES: &[Rule] = &[Rule::custom("aten.digamma.default", digamma_rule)
    .samples(&["self: T[2,3]", "self: T[3,4]{pos}", "self: i64[2,5]{-3..40}", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64"])];
