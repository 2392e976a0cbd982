use crate::lowering::{builder, Attr, Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.remainder.Scalar", remainder)
        .samples(&["self: T[2,5]; other: 3", "self: T[2,5]; other: -2"])
        .dtypes(&["f32", "i64"]),
    Rule::custom("aten.remainder.Tensor", remainder)
        .samples(&["self: T[2,5]; other: T[5]{1..4}", "self: T[2,5]; other: T[2,5]{-4..-1}"])
        .dtypes(&["f32", "i64"]),
];

/// Python's modulo (the sign of the divisor): `Mod(fmod=0)` for integers,
/// `x - floor(x / y) * y` for floats.
fn remainder<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    let x = ctx.tensor_as("self", element)?;
    let y = ctx.tensor_as("other", element)?;
    if !builder::is_float(element) {
        return Ok(vec![ctx.op("Mod", &[x, y], &[("fmod", Attr::Int(0))])?]);
    }
    let b = &ctx.b;
    let q = b.op_like("Div", &[x, y], &[], x)?;
    let q = b.op_like("Floor", &[q], &[], x)?;
    let p = b.op_like("Mul", &[q, y], &[], x)?;
    Ok(vec![ctx.op("Sub", &[x, p], &[])?])
}
