//! `aten.t`: `Transpose(perm=[1, 0])` of a 2-D tensor; 0-d and 1-D tensors are returned unchanged, as by torch.

use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.t.default", |c| {
    let x = c.args.tensor("self")?;
    if c.rank(x)? < 2 {
        return Ok(vec![x]);
    }
    Ok(vec![c.b.onnx().transpose(x, Some(&[1, 0])).typed(c.result_type(0)?)?])
})
.samples(&["self: T[3,4]", "self: T[3]"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
