//! `aten.permute`: ONNX `Transpose` with `dims` (negative dims normalized) as `perm`.

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.permute.default", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let perm: Vec<i64> = c.args.ints("dims")?.into_iter().map(|d| c.norm_dim(d, rank)).collect();
    Ok(vec![c.b.onnx().transpose(x, Some(&perm)).typed(c.result_type(0)?)?])
})
.complex(super::complex_common::permute)
.complex_samples(&["self: C[2,3,4]; dims: [2,0,-2]"])
.samples(&["self: T[2,3,4]; dims: [2,0,1]", "self: T[2,3,4]; dims: [-1,-3,-2]"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
