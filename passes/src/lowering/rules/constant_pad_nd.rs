use crate::lowering::{Attr, Ctx, IntArg, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.constant_pad_nd.default", pad)
    .samples(&["self: T[2,3,4]; pad: [1,2]", "self: T[2,3,4]; pad: [1,0,2,1]; value: 1.5", "self: T[2,5]; pad: [-1,2]"])
    .dtypes(&["f32", "i64"])];

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
    let mut begins = vec![0i64; rank];
    let mut ends = vec![0i64; rank];
    for (i, pair) in pairs.chunks(2).enumerate() {
        begins[rank - 1 - i] = pair[0];
        ends[rank - 1 - i] = pair[1];
    }
    let pads = ctx.b.const_i64s(&[begins, ends].concat())?;
    // `pad.default` names the mode and may leave the value out (0).
    let mode = if ctx.args.schema.arg("mode").is_some() { ctx.args.string("mode")? } else { "constant".to_string() };
    let onnx_mode = match mode.as_str() {
        "constant" => "constant",
        "reflect" => "reflect",
        "replicate" => "edge",
        "circular" if ctx.b.opset >= 19 => "wrap",
        other => return Err(format!("pad mode '{other}' is not supported at opset {}", ctx.b.opset)),
    };
    if onnx_mode != "constant" {
        return Ok(vec![ctx.op("Pad", &[x, pads], &[("mode", Attr::String(onnx_mode.into()))])?]);
    }
    let value = if ctx.args.is_none("value")? { 0.0 } else { ctx.args.number("value")?.as_f64() };
    let value = ctx.b.const_like(x, value)?;
    Ok(vec![ctx.op("Pad", &[x, pads, value], &[("mode", Attr::String("constant".into()))])?])
}
