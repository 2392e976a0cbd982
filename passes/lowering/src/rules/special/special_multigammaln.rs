use super::special_common::mvlgamma;
use crate::Rule;

/// `torch.special.multigammaln` = mvlgamma (exported as its own target in the TRAINING IR).
pub const RULES: &[Rule] =
    &[Rule::custom("aten.special_multigammaln.default", mvlgamma).samples(&["self: T[2,3]{pos}; p: 1"])];
