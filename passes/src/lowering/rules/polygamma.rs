use super::digamma::digamma_rule;
use crate::lowering::Rule;

/// `polygamma(0, x)` = digamma. Higher orders are refused: ONNX has no
/// Hurwitz zeta, and the shift-plus-asymptotic series used for digamma would
/// need an unbounded number of shifts for negative arguments.
pub const RULES: &[Rule] = &[Rule::custom("aten.polygamma.default", |c| {
    let n = c.args.int("n")?;
    if n != 0 {
        return Err(format!("polygamma of order {n}: only order 0 (digamma) has an ONNX lowering"));
    }
    digamma_rule(c)
})
.samples(&["n: 0; self: T[2,3]", "n: 0; self: T[]"])
.dtypes(&["f32", "i64"])
.refuses(&[("n: 1; self: T[2,3]", "only order 0")])];
