use crate::Rule;

/// A chain of `MatMul`s, left to right: numpy semantics treat a leading
/// 1-d operand as a row vector and a trailing one as a column, like torch.
pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_multi_dot.default", |c| {
    let el = c.result_element(0)?;
    let ts = c.args.tensors("tensors")?;
    if ts.len() < 2 {
        return Err("linalg.multi_dot needs at least 2 tensors".into());
    }
    for (i, t) in ts.iter().enumerate() {
        let r = c.rank(*t)?;
        let ends = i == 0 || i == ts.len() - 1;
        if r != 2 && !(r == 1 && ends) {
            return Err(format!("linalg.multi_dot: tensor {i} has rank {r}"));
        }
    }
    let mut acc = c.b.cast_like_type(ts[0], el)?;
    for (i, t) in ts.iter().enumerate().skip(1) {
        let t = c.b.cast_like_type(*t, el)?;
        acc = if i == ts.len() - 1 { c.b.onnx().mat_mul(acc, t).typed(c.result_type(0)?)? } else { c.b.onnx().mat_mul(acc, t).typed(c.b.unranked(el))? };
    }
    Ok(vec![acc])
})
.samples(&[
    "tensors: (T[2,3], T[3,4])",
    "tensors: (T[3], T[3,4], T[4,2], T[2])",
    "tensors: (T[2,3], T[3,4], T[4,5])",
    "tensors: (T[3], T[3])",
    "tensors: (T[0,3], T[3,2])",
])
.dtypes(&["f32", "f64", "i64"])];
