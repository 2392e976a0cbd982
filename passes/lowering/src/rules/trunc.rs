use crate::Rule;

/// `sign(x) * floor(|x|)`.
pub const RULES: &[Rule] = &[Rule::custom("aten.trunc.default", |c| {
    let x = c.args.tensor("self")?;
    if !crate::builder::is_float(c.result_element(0)?) {
        return Ok(vec![x]);
    }
    let a = c.b.op_like("Abs", &[x], &[], x)?;
    let f = c.b.op_like("Floor", &[a], &[], x)?;
    let s = c.b.op_like("Sign", &[x], &[], x)?;
    Ok(vec![c.op("Mul", &[s, f], &[])?])
})
.samples(&["self: T[2,5]", "self: T[0]"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8"])];
