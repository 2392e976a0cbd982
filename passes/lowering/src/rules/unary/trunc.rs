use crate::Rule;

/// `sign(x) * floor(|x|)`.
pub const RULES: &[Rule] = &[Rule::custom("aten.trunc.default", |c| {
    let x = c.args.tensor("self")?;
    if !crate::builder::is_float(c.result_element(0)?) {
        return Ok(vec![x]);
    }
    let a = c.b.onnx().abs(x).like(x)?;
    let f = c.b.onnx().floor(a).like(x)?;
    let s = c.b.onnx().sign(x).like(x)?;
    Ok(vec![c.b.onnx().mul(s, f).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,5]", "self: T[0]"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"])];
