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
