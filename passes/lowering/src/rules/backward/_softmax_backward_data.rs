use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten._softmax_backward_data.default", softmax_backward)
    .samples(&[
        "grad_output: T[3,4]; output: T[3,4]{pos}; dim: 1; input_dtype: dtype(T)",
        "grad_output: T[2,3,4]; output: T[2,3,4]{pos}; dim: -3; input_dtype: dtype(T)",
        "grad_output: T[]; output: T[]{pos}; dim: 0; input_dtype: dtype(T)",
        "grad_output: T[0,4]; output: T[0,4]; dim: 1; input_dtype: dtype(T)",
    ])
    .dtypes(&["f32", "f64"])];

/// `output * (grad - sum(grad * output, dim, keepdim))` (torch's kernel).
fn softmax_backward<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    let g = c.tensor_as("grad_output", el)?;
    let o = c.tensor_as("output", el)?;
    let dim = c.args.int("dim")?;
    let b = &c.b;
    let rank = c.rank(c.args.tensor("output")?)?;
    let axis = c.dim(dim, rank)? as i64;
    // A 0-d pair is computed as 1-element vectors.
    let (g, o) = if rank == 0 { (c.unsqueeze(g, &[0])?, c.unsqueeze(o, &[0])?) } else { (g, o) };
    let prod = b.onnx().mul(g, o).like(g)?;
    let s = c.reduce(crate::Reduction::Sum, prod, Some(&[axis]), true, b.unranked(el))?;
    let y = b.onnx().mul(o, b.onnx().sub(g, s).like(g)?).like(g)?;
    let y = if rank == 0 { c.squeeze(y, &[0])? } else { y };
    Ok(vec![c.b.onnx().identity(y).typed(c.result_type(0)?)?])
}
