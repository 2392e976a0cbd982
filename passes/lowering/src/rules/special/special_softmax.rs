use super::softmax_common::softmax;
use crate::Rule;

/// `torch.special.softmax` (exported as its own target in the TRAINING IR).
pub const RULES: &[Rule] = &[Rule::custom("aten.special_softmax.default", |c| softmax(c, "Softmax")).samples(&[
    "self: T[2,3]; dim: 1",
    "self: T[2,3]; dim: 0; dtype: dtype(f32)",
    "self: T[]; dim: 0",
])];
