//! `aten.sinc`: `sin(pi x) / (pi x)`, 1 where `x == 0`, in the float result type (integer inputs cast to it).

use super::elementwise_common::sinc;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.sinc.default", sinc)
    .samples(&["self: T[2,3]", "self: i64[2,3]{-2..3}", "self: T[0]", "self: T[]"])
    .dtypes(&["f32", "i64"])];
