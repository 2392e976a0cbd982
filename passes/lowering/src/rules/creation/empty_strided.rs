use super::common::filled;
use crate::Rule;

/// Zeros of `size` (contents are unspecified in torch; ONNX tensors have no
/// strides).
pub const RULES: &[Rule] = &[Rule::custom("aten.empty_strided.default", |c| {
    let shape = c.int_list_tensor(&c.args.sym_ints("size")?)?;
    filled(c, shape, 0.0)
})
.samples(&["size: [2,3]; stride: [3,1]", "size: [2,3]; stride: [1,2]", "size: [0]; stride: [1]", "size: [4]; stride: [1]; dtype: dtype(i64)"])];
