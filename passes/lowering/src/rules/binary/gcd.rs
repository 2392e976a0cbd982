//! `aten.gcd`: torch's Euclid loop (`calc_gcd`) on the absolute values in int64, as an ONNX `Loop`, cast back to
//! the integer result type. The loop runs until every remainder is 0 (64-bit values need at most 92 steps; the
//! trip limit is 100); `gcd(0, 0) = 0`, and float or bool tensors are refused, as by torch.

use super::gcd_common::{gcd_i64, operands};
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.gcd.default", |c| {
    let (a, b, element) = operands(c, "gcd")?;
    let g = gcd_i64(c, a, b)?;
    Ok(vec![c.b.cast(g, element)?])
})
.samples(&[
    "self: T[2,5]{-40..40}; other: T[2,5]{-40..40}",
    "self: T[6]{0..3}; other: T[]{0..30}",
    "self: T[0,3]; other: T[3]",
])
.dtypes(&["i64", "i32", "i16", "i8"])];
