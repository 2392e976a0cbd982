use crate::Rule;

/// Writes `src` into `self.select(dim, index)`: unsqueeze src at dim, then
/// `ScatterElements` with the index broadcast to that shape.
pub const RULES: &[Rule] = &[Rule::custom("aten.select_scatter.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let dim = c.norm_dim(c.args.int("dim")?, rank);
    let src = c.unsqueeze(c.args.tensor("src")?, &[dim])?;
    let src = b.cast_like(src, x)?;
    let index = c.int_scalar(c.args.sym_int("index")?, b.i64_type())?;
    let shape = b.shape(src)?;
    let idx = b.onnx().expand(index, shape).typed(b.unranked(b.i64_type()))?;
    Ok(vec![c.b.onnx().scatter_elements(x, idx, src, Some(dim), None).typed(c.result_type(0)?)?])
})
.samples(&["self: T[3,4]; src: T[4]; dim: 0; index: 1", "self: T[3,4]; src: T[3]; dim: 1; index: -1"]).dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"])];
