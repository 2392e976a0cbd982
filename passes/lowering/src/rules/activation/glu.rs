use crate::{builder, Rule};
use melior::ir::ValueLike;

/// `a * sigmoid(b)` of the two halves along `dim`.
pub const RULES: &[Rule] = &[Rule::custom("aten.glu.default", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let dim = c.norm_dim(c.args.int("dim")?, rank);
    let halves = [c.result_type(0)?, c.result_type(0)?];
    let n = builder::dims(x.r#type()).and_then(|d| d.get(dim as usize).copied().flatten());
    let parts = match n {
        Some(n) if n % 2 != 0 => return Err(format!("glu halves dim {dim}: its size {n} must be even")),
        Some(n) => {
            let half = c.b.const_i64s(&[n / 2, n / 2])?;
            c.b.onnx().split(x, Some(half), Some(dim), None).results(&halves)?
        }
        // A dynamic size (even, or torch would have refused): two equal parts.
        None if c.b.opset >= 18 => {
            c.b.onnx().split(x, None, Some(dim), Some(2)).results(&halves)?
        }
        None => c.b.onnx().split(x, None, Some(dim), None).results(&halves)?,
    };
    let s = c.b.onnx().sigmoid(parts[1]).like(x)?;
    Ok(vec![c.b.onnx().mul(parts[0], s).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,6]", "self: T[4,3]; dim: 0"]).dtypes(&["f32", "f16", "bf16", "f64"])];
