use crate::Rule;

/// A capture-time check of dtype/shape metadata; ONNX types carry the same
/// facts, so it lowers to nothing (also on complex tensors: no value is read).
pub const RULES: &[Rule] =
    &[Rule::custom("aten._assert_tensor_metadata.default", |_| Ok(vec![])).complex(|_| Ok(vec![]))];
