use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.clamp_min.default", |c| bound(c, "min", "Max"))
        .samples(&["self: T[2,3]; min: 0.25", "self: T[2,3]; min: -1", "self: T[]; min: 0"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.clamp_min.Tensor", |c| bound(c, "min", "Max"))
        .samples(&["self: T[2,3]; min: T[3]", "self: T[2,3]; min: T[]", "self: T[]; min: T[2]"])
        .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"]),
];

/// `Max(x, min)` / `Min(x, max)` in the result type (NaN in `x` or the
/// bound propagates, like torch).
pub(super) fn bound<'c, 'a>(ctx: &Ctx<'c, 'a>, arg: &str, op: &str) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    if crate::builder::is_bool(element) {
        // ONNX Max/Min take no bools: compare as int64 0/1 and cast back.
        let wide = ctx.b.i64_type();
        let x = ctx.tensor_as("self", wide)?;
        let b = ctx.tensor_as(arg, wide)?;
        let m = ctx.b.op_like(op, &[x, b], &[], x)?;
        let to = crate::onnx_ir::data_type_code(element).ok_or("no ONNX data type for the result")?;
        return Ok(vec![ctx.b.onnx().cast(m, None, None, to).typed(ctx.result_type(0)?)?]);
    }
    let x = ctx.tensor_as("self", element)?;
    let b = ctx.tensor_as(arg, element)?;
    Ok(vec![ctx.op(op, &[x, b], &[])?])
}
