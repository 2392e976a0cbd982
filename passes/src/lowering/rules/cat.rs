use crate::lowering::{Attr, Rule};

pub const RULES: &[Rule] = &[Rule::custom("aten.cat.default", |c| {
    let element = c.result_element(0)?;
    let mut inputs = Vec::new();
    for t in c.args.tensors("tensors")? {
        inputs.push(c.b.cast_like_type(t, element)?);
    }
    Ok(vec![c.op("Concat", &inputs, &[("axis", Attr::Int(c.args.int("dim")?))])?])
})
.complex(super::complex_common::cat)
.complex_samples(&["tensors: (C[2,3], C[4,3]); dim: 0", "tensors: (C[2,3], T[2,1]); dim: -1"])
.samples(&["tensors: (T[2,3], T[4,3]); dim: 0", "tensors: (T[2,3], T[2,1], T[2,2]); dim: -1"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
