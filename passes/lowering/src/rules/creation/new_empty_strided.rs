use super::common::filled;
use crate::Rule;

/// Zeros of `size` (contents are unspecified in torch; no strides in ONNX).
pub const RULES: &[Rule] = &[Rule::custom("aten.new_empty_strided.default", |c| {
    let shape = c.int_list_tensor(&c.args.sym_ints("size")?)?;
    filled(c, shape, 0.0)
})
.samples(&["self: T[2]; size: [3,4]; stride: [4,1]", "self: T[2]; size: [2]; stride: [2]"])
.dtypes(&["f32", "i64", "bool", "i32", "f64"])];
