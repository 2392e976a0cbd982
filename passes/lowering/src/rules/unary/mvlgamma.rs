//! `aten.mvlgamma`: `p (p - 1) / 4 * log(pi) + sum_{j < p} lgamma(x - j / 2)` in float64, cast to the result
//! type (`lgamma` written out, ONNX has none). torch raises where
//! some x <= (p - 1) / 2; the model cannot raise and gives the formula's value there.

use super::special_common::mvlgamma;
use crate::Rule;

pub const RULES: &[Rule] =
    &[Rule::custom("aten.mvlgamma.default", mvlgamma).samples(&["self: T[2,3]{pos}; p: 1", "self: T[]{pos}; p: 1"])];
