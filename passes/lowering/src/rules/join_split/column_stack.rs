use crate::Rule;

/// `torch.column_stack`: 0-d and 1-D tensors become columns `[N, 1]`, the
/// others are kept; all concatenated on dim 1.
pub const RULES: &[Rule] = &[Rule::custom("aten.column_stack.default", |c| {
    let element = c.result_element(0)?;
    let mut parts = Vec::new();
    for t in c.args.tensors("tensors")? {
        let col = match c.rank(t)? {
            0 => c.unsqueeze(t, &[0, 1])?,
            1 => c.unsqueeze(t, &[1])?,
            _ => t,
        };
        parts.push(c.b.cast_like_type(col, element)?);
    }
    Ok(vec![c.b.onnx().concat(&parts, 1).typed(c.result_type(0)?)?])
})
.samples(&["tensors: (T[3], T[3], T[3,2])", "tensors: (T[], T[])", "tensors: (T[2,3,4], T[2,1,4])", "tensors: (T[0], T[0,2])", "tensors: (T[2], i64[2])"])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
