use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.nonzero.default", nonzero)
    .samples(&["self: T[3,4]", "self: T[5]", "self: T[2,0]", "self: T[2,3,2]", "self: T[]"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64"])];

/// `Transpose(NonZero(x))`: one row of indices per nonzero element, in
/// row-major order (`[n, rank]`). A 0-d input gives `[n, 0]`.
pub fn nonzero<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let x = ctx.args.tensor("self")?;
    if ctx.rank(x)? == 0 {
        // n = 1 if x != 0 else 0; the rows have no columns.
        let one = b.const_i64s(&[1])?;
        let flat = b.onnx().reshape(x, one, None).like(x)?;
        let nz = b.onnx().non_zero(truth(ctx, flat)?).typed(b.unranked(b.i64_type()))?;
        // nz: [1, n] -> [n, 0]
        let t = b.onnx().transpose(nz, Some(&[1, 0])).typed(b.unranked(b.i64_type()))?;
        let starts = b.const_i64s(&[0])?;
        let ends = b.const_i64s(&[0])?;
        let axes = b.const_i64s(&[1])?;
        return Ok(vec![ctx.b.onnx().slice(t, starts, ends, Some(axes), None).typed(ctx.result_type(0)?)?]);
    }
    let nz = b.onnx().non_zero(truth(ctx, x)?).typed(b.unranked(b.i64_type()))?;
    Ok(vec![ctx.b.onnx().transpose(nz, Some(&[1, 0])).typed(ctx.result_type(0)?)?])
}

/// `x != 0` as bool (onnxruntime's NonZero has no kernel for every type,
/// e.g. float64).
fn truth<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let b = &ctx.b;
    let element = crate::builder::element_type(melior::ir::ValueLike::r#type(&x)).ok_or("not a tensor")?;
    if crate::builder::is_bool(element) {
        return Ok(x);
    }
    let zero = b.const_scalar(element, 0.0)?;
    let bool_type = melior::ir::r#type::IntegerType::new(b.context, 1).into();
    let eq = b.onnx().equal(x, zero).typed(b.unranked(bool_type))?;
    b.onnx().not(eq).typed(b.unranked(bool_type))
}
