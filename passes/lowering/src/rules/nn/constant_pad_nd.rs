use super::nn_common::pad_torch;
use crate::{Ctx, IntArg, Rule};
use melior::ir::{Value, ValueLike};

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
    let sym = ctx.args.sym_ints("pad")?;
    if sym.len() % 2 != 0 || sym.len() / 2 > rank {
        return Err(format!("pad has {} values for a rank-{rank} tensor", sym.len()));
    }
    // `pad.default` names the mode and may leave the value out (0).
    let mode = if ctx.args.schema.arg("mode").is_some() { ctx.args.string("mode")? } else { "constant".to_string() };
    let value = if ctx.args.is_none("value")? { 0.0 } else { ctx.args.number("value")?.as_f64() };
    let statics: Option<Vec<i64>> =
        sym.iter().map(|p| if let IntArg::Static(v) = p { Some(*v) } else { None }).collect();
    let y = match statics {
        Some(pairs) => pad_torch(ctx, x, &pairs, &mode, value)?,
        None => dynamic_constant_pad(ctx, x, &sym, &mode, value)?,
    };
    Ok(vec![ctx.b.onnx().identity(y).typed(ctx.result_type(0)?)?])
}

/// Pad amounts computed in the graph (e.g. `(window - W % window) % window`
/// with a dynamic W): constant mode only, where ONNX `Pad` crops with
/// negative amounts exactly as torch does, so the signs need not be known.
/// The other modes crop and pad in separate steps chosen by sign: refused.
fn dynamic_constant_pad<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    sym: &[IntArg<'c, 'a>],
    mode: &str,
    value: f64,
) -> Result<Value<'c, 'a>, String> {
    if mode != "constant" {
        return Err(format!("a dynamic pad amount is not supported in mode '{mode}' (only 'constant')"));
    }
    let rank = ctx.rank(x)?;
    let mut begins = vec![IntArg::Static(0); rank];
    let mut ends = vec![IntArg::Static(0); rank];
    for (i, pair) in sym.chunks(2).enumerate() {
        begins[rank - 1 - i] = pair[0];
        ends[rank - 1 - i] = pair[1];
    }
    let pads = ctx.int_list_tensor(&[begins, ends].concat())?;
    let element = crate::builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let v = ctx.b.const_scalar(element, value)?;
    ctx.b.onnx().pad(x, pads, Some(v), None, Some("constant")).like(x)
}
