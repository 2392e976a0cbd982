//! `aten.expand`: ONNX `Expand` to `size`; a -1 entry (keep the input's dim) is written as 1, which `Expand`'s
//! broadcasting keeps.

use super::common::expand_size;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.expand.default", |c| {
    let x = c.args.tensor("self")?;
    let size = expand_size(c, c.args.sym_ints("size")?)?;
    Ok(vec![c.b.onnx().expand(x, size).typed(c.result_type(0)?)?])
})
.complex(super::complex_common::expand)
.complex_samples(&["self: C[3,1]; size: [2,3,4]", "self: C[3,1]; size: [-1,4]"])
.samples(&["self: T[3,1]; size: [3,4]", "self: T[3,1]; size: [2,-1,4]"])
.dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];
