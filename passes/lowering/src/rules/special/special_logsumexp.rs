use super::reduce_common::logsumexp;
use crate::Rule;

/// `torch.special.logsumexp` (exported as its own target in the TRAINING IR).
pub const RULES: &[Rule] = &[Rule::custom("aten.special_logsumexp.default", logsumexp)
    .samples(&["self: T[2,3]; dim: [1]", "self: T[2,3]; dim: [0]; keepdim: true"])];
