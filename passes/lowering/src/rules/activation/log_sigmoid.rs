use super::act_common::log_sigmoid;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.log_sigmoid.default", |c| Ok(vec![log_sigmoid(c)?]))
    .samples(&["self: T[2,3]", "self: T[0,3]", "self: T[]"])
    .dtypes(&["f32", "f16", "bf16", "f64"])];
