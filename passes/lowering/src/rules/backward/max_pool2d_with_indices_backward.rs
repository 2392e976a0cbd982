use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.max_pool2d_with_indices_backward.default", |c| {
    max_pool_backward(c, 2)
})
.samples(&[
    "grad_output: T[2,3,2,2]; self: T[2,3,4,5]; kernel_size: [2,2]; stride: [2,2]; padding: [0,0]; dilation: [1,1]; ceil_mode: false; indices: i64[2,3,2,2]{0..20}",
    "grad_output: T[1,2,3,3]; self: T[1,2,5,5]; kernel_size: [3,3]; stride: [2,2]; padding: [1,1]; dilation: [1,1]; ceil_mode: true; indices: i64[1,2,3,3]{0..25}",
    "grad_output: T[2,2,3]; self: T[2,4,6]; kernel_size: [2,2]; stride: [2,2]; padding: [0,0]; dilation: [1,1]; ceil_mode: false; indices: i64[2,2,3]{0..24}",
])];

/// `grad_output` added into zero planes at torch's per-plane flat indices
/// (ScatterElements with reduction add: a position chosen by several
/// windows gets the sum, like torch).
pub(super) fn max_pool_backward<'c, 'a>(c: &Ctx<'c, 'a>, spatial: usize) -> Result<Vec<Value<'c, 'a>>, String> {
    let g = c.args.tensor("grad_output")?;
    let x = c.args.tensor("self")?;
    let indices = c.args.tensor("indices")?;
    let dims = builder::dims(x.r#type()).ok_or("unknown rank")?;
    let rank = dims.len();
    if rank != spatial + 1 && rank != spatial + 2 {
        return Err(format!("max pool backward of a rank-{rank} input"));
    }
    let lead = rank - spatial;
    let i64t = c.b.unranked(c.b.i64_type());
    let mut flat = vec![0i64; lead];
    flat.push(-1);
    let flat = c.b.const_i64s(&flat)?;
    let gf = c.b.onnx().reshape(g, flat, None).like(g)?;
    let idx = c.b.onnx().reshape(indices, flat, None).typed(i64t)?;
    // Zeros shaped like the flattened input (built from its shape, not 0 * x: NaN-safe).
    let shape = c.b.shape(x)?;
    let lead_shape = c.b.onnx().slice(shape, c.b.const_i64s(&[0])?, c.b.const_i64s(&[lead as i64])?, None, None).typed(i64t)?;
    let plane = c.reduce(
        crate::Reduction::Prod,
        c.b.onnx().slice(shape, c.b.const_i64s(&[lead as i64])?, c.b.const_i64s(&[i64::MAX])?, None, None).typed(i64t)?,
        None,
        true,
        i64t,
    )?;
    let zs = c.b.onnx().concat(&[lead_shape, plane], 0).typed(i64t)?;
    let zeros = c.b.onnx().expand(c.b.const_like(g, 0.0)?, zs).like(g)?;
    let summed = c.b.onnx().scatter_elements(zeros, idx, gf, Some(lead as i64), Some("add")).like(g)?;
    Ok(vec![c.b.onnx().reshape(summed, shape, None).typed(c.result_type(0)?)?])
}
