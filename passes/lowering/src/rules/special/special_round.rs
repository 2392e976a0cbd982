use super::elementwise_common::round_decimals;
use crate::Rule;

/// `torch.special.round` (exported as its own target in the TRAINING IR).
pub const RULES: &[Rule] =
    &[Rule::custom("aten.special_round.default", round_decimals)
        .samples(&["self: T[2,3]; decimals: 1", "self: T[2,3]"])];
