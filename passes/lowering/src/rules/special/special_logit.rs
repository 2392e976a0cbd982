use super::elementwise_common::logit;
use crate::Rule;

/// `torch.special.logit` (exported as its own target in the TRAINING IR).
pub const RULES: &[Rule] =
    &[Rule::custom("aten.special_logit.default", logit).samples(&["self: T[2,3]{pos}", "self: T[2,3]; eps: 0.1"])];
