use super::common::rounding;
use crate::{builder, Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.round.default", |c| rounding(c, "Round"))
        .samples(&["self: T[2,3]", "self: T[0]", "self: T[]"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"]),
    Rule::custom("aten.round.decimals", round_decimals).samples(&[
        "self: T[2,3]; decimals: 2",
        "self: T[2,3]; decimals: 0",
        "self: T[2,3]; decimals: -1",
        "self: T[]; decimals: 3",
        "self: T[0]; decimals: 1",
    ])
    // Not f16/bf16: torch rounds x * 10^d to the half type before rounding to an
    // integer; computed in float32 (onnx-widen-half) the scaling does not round.
    .dtypes(&["f32", "f64"]),
];

/// torch's formula: `round(x * 10^d) / 10^d` for d >= 0,
/// `round(x / 10^-d) * 10^-d` for d < 0 (round half to even, like ONNX
/// `Round`).
pub(super) fn round_decimals<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    if !builder::is_float(c.result_element(0)?) {
        return Err("round with decimals of an integer tensor (torch refuses it)".into());
    }
    let d = c.args.int("decimals")?;
    let b = &c.b;
    let p = b.const_like(x, 10f64.powi(d.unsigned_abs() as i32))?;
    // x * 10^d rounded / 10^d; x / 10^-d rounded * 10^-d for d < 0.
    let y = if d >= 0 { b.onnx().mul(x, p) } else { b.onnx().div(x, p) };
    let y = y.like(x)?;
    let y = b.onnx().round(y).like(x)?;
    let y = if d >= 0 { b.onnx().div(y, p) } else { b.onnx().mul(y, p) };
    Ok(vec![y.typed(c.result_type(0)?)?])
}
