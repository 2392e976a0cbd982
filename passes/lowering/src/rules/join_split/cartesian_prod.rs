use crate::Rule;

/// `torch.cartesian_prod` of 1-D tensors: one row per tuple, the last
/// tensor varying fastest (meshgrid "ij", flattened, stacked on dim 1).
/// A single tensor is returned as is.
pub const RULES: &[Rule] = &[Rule::custom("aten.cartesian_prod.default", |c| {
    let b = &c.b;
    let element = c.result_element(0)?;
    let tensors = c.args.tensors("tensors")?;
    for t in &tensors {
        if c.rank(*t)? != 1 {
            return Err(format!("cartesian_prod expects 1-D tensors, got rank {}", c.rank(*t)?));
        }
    }
    let k = tensors.len();
    if k == 0 {
        return Err("cartesian_prod of no tensors".into());
    }
    if k == 1 {
        let t = b.cast_like_type(tensors[0], element)?;
        return Ok(vec![c.b.onnx().identity(t).typed(c.result_type(0)?)?]);
    }
    let shapes: Vec<_> = tensors.iter().map(|t| b.shape(*t)).collect::<Result<_, _>>()?;
    let full = b.onnx().concat(&shapes, 0).typed(b.unranked(b.i64_type()))?;
    // Broadcast with `Where(mask, r, r)` over an all-false mask of the full shape, not
    // `Expand`: onnxruntime's Expand elimination drops an Expand from
    // [2,1] to [2,0] (an empty input), which then gives [2,2], not [0,2].
    let zeros = b.onnx().constant_of_shape(full, None).typed(b.unranked(b.f32_type()))?;
    let mask = b.cast(zeros, super::math_common::bool_type(c))?;
    let mut columns = Vec::new();
    for (i, t) in tensors.iter().enumerate() {
        let mut shape = vec![1i64; k];
        shape[i] = -1;
        let t = b.cast_like_type(*t, element)?;
        let r = b.onnx().reshape(t, b.const_i64s(&shape)?, None).like(t)?;
        // (onnxruntime has no bool Where: `r or false` broadcasts a bool.)
        let e = if crate::builder::is_bool(element) {
            b.onnx().or(r, mask).like(t)?
        } else {
            b.onnx().where_(mask, r, r).like(t)?
        };
        columns.push(b.onnx().reshape(e, b.const_i64s(&[-1, 1])?, None).like(t)?);
    }
    Ok(vec![c.b.onnx().concat(&columns, 1).typed(c.result_type(0)?)?])
})
.samples(&["tensors: (T[3], T[2])", "tensors: (T[2], T[3], T[2])", "tensors: (T[4])", "tensors: (T[2], T[0])", "tensors: (T[0], T[3])", "tensors: (T[2], T[0], T[3])"])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
