use super::elementwise_common::xlogy;
use crate::Rule;

/// `torch.special.xlogy` (exported as its own targets in the TRAINING IR).
pub const RULES: &[Rule] = &[
    Rule::custom("aten.special_xlogy.default", xlogy).samples(&["self: T[2,3]{0..2}; other: T[3]{pos}"]),
    Rule::custom("aten.special_xlogy.self_scalar", xlogy).samples(&["self: 0; other: T[2,3]"]),
    Rule::custom("aten.special_xlogy.other_scalar", xlogy).samples(&["self: T[2,3]; other: 3.0"]),
];
