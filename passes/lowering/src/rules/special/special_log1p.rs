use super::elementwise_common::log1p;
use crate::Rule;

/// `torch.special.log1p` (exported as its own target in the TRAINING IR).
pub const RULES: &[Rule] = &[Rule::custom("aten.special_log1p.default", log1p)
    .samples(&["self: T[2,3]{pos}", "self: T[]"])
    .dtypes(&["f32", "i64"])];
