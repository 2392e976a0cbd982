use super::softmax::softmax;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.log_softmax.int", |c| softmax(c, "LogSoftmax")),
    Rule::custom("aten._log_softmax.default", |c| softmax(c, "LogSoftmax")),
];
