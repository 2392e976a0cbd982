use super::nn_common::pad_torch;
use crate::lowering::{Ctx, IntArg, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.constant_pad_nd.default", pad)
    .complex(super::complex_common::constant_pad)
    .complex_samples(&["self: C[3,4]; pad: [1,2]", "self: C[2,3,4]; pad: [0,1,2,-1]"])
    .samples(&[
        "self: T[2,3,4]; pad: [1,2]",
        "self: T[2,3,4]; pad: [1,0,2,1]; value: 1.5",
        "self: T[2,5]; pad: [-1,2]",
        "self: T[2,5]; pad: [-2,-1,1,-1]; value: -3.0",
        "self: T[0,5]; pad: [1,2]",
        "self: T[3]; pad: [0,0]",
    ])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "bool"])];

/// torch lists (begin, end) pairs from the last dim backwards; ONNX `Pad`
/// wants all begins then all ends, first dim first. Negative pads crop.
pub(super) fn pad<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let pairs: Vec<i64> = ctx
        .args
        .sym_ints("pad")?
        .into_iter()
        .map(|p| match p {
            IntArg::Static(v) => Ok(v),
            IntArg::Dynamic(_) => Err("a dynamic pad amount is not supported".to_string()),
        })
        .collect::<Result<_, _>>()?;
    if pairs.len() % 2 != 0 || pairs.len() / 2 > rank {
        return Err(format!("pad has {} values for a rank-{rank} tensor", pairs.len()));
    }
    // `pad.default` names the mode and may leave the value out (0).
    let mode = if ctx.args.schema.arg("mode").is_some() { ctx.args.string("mode")? } else { "constant".to_string() };
    let value = if ctx.args.is_none("value")? { 0.0 } else { ctx.args.number("value")?.as_f64() };
    let y = pad_torch(ctx, x, &pairs, &mode, value)?;
    Ok(vec![ctx.op("Identity", &[y], &[])?])
}
