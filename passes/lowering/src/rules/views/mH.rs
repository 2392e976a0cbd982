use super::transpose_common::swap_last_two;
use crate::Rule;

/// `x.mH`: the conjugate transpose of the last two dims; real tensors only
/// (complex tensors have no ONNX representation here).
pub const RULES: &[Rule] = &[
    Rule::custom("aten.mH.default", swap_last_two).samples(&["self: T[3,4]", "self: T[2,3,4]"]).dtypes(&["f32", "i64"]),
];
