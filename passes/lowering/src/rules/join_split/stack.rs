use crate::Rule;

/// `Unsqueeze` each input at `dim`, then `Concat`.
pub const RULES: &[Rule] = &[Rule::custom("aten.stack.default", |c| {
    let tensors = c.args.tensors("tensors")?;
    let first = *tensors.first().ok_or("stack of no tensors")?;
    let dim = c.norm_dim(c.args.int("dim")?, c.rank(first)? + 1);
    let element = c.result_element(0)?;
    let mut parts = Vec::new();
    for t in tensors {
        let t = c.b.cast_like_type(t, element)?;
        parts.push(c.unsqueeze(t, &[dim])?);
    }
    Ok(vec![c.b.onnx().concat(&parts, dim).typed(c.result_type(0)?)?])
})
.complex(super::complex_common::stack)
.complex_samples(&["tensors: (C[2,3], C[2,3]); dim: -1", "tensors: (C[2,3], C[2,3]); dim: 0"])
.samples(&["tensors: (T[2,3], T[2,3]); dim: 0", "tensors: (T[2,3], T[2,3], T[2,3]); dim: -1"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
