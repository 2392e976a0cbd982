use crate::Rule;

/// `Slice` with step -1 over each flipped dim.
pub const RULES: &[Rule] = &[Rule::custom("aten.flip.default", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let dims: Vec<i64> = c.args.ints("dims")?.into_iter().map(|d| c.norm_dim(d, rank)).collect();
    if dims.is_empty() {
        return Ok(vec![x]);
    }
    let n = dims.len();
    let starts = c.b.const_i64s(&vec![-1; n])?;
    let ends = c.b.const_i64s(&vec![i64::MIN; n])?;
    let axes = c.b.const_i64s(&dims)?;
    let steps = c.b.const_i64s(&vec![-1; n])?;
    Ok(vec![c.b.onnx().slice(x, starts, ends, Some(axes), Some(steps)).typed(c.result_type(0)?)?])
})
.samples(&["self: T[3,4]; dims: [0]", "self: T[2,3,4]; dims: [-1,0]", "self: T[0,2]; dims: [1]"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
