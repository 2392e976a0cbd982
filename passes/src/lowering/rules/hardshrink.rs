use super::math_common::bool_op;
use crate::lowering::Rule;

/// torch: `-lambd <= x <= lambd ? 0 : x` (NaN kept: it fails both tests).
pub const RULES: &[Rule] = &[Rule::custom("aten.hardshrink.default", |c| {
    let x = c.args.tensor("self")?;
    let b = &c.b;
    let l = c.args.number("lambd")?.as_f64();
    let ge = bool_op(c, "GreaterOrEqual", &[x, b.const_like(x, -l)?])?;
    let le = bool_op(c, "LessOrEqual", &[x, b.const_like(x, l)?])?;
    let inside = bool_op(c, "And", &[ge, le])?;
    Ok(vec![c.op("Where", &[inside, b.const_like(x, 0.0)?, x], &[])?])
})
.samples(&["self: T[3,4]", "self: T[3,4]; lambd: 1.5", "self: T[3,4]; lambd: -0.5", "self: T[]", "self: T[0,2]"])
.dtypes(&["f32", "f64", "f16", "bf16"])];
