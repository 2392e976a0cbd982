use super::var::variance;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.std.dim", |c| variance(c, true)).samples(&["self: T[3,5]; dim: [1]; unbiased: false"]),
    Rule::custom("aten.std.correction", |c| variance(c, true))
        .samples(&["self: T[3,5]; dim: [1]", "self: T[3,5]; dim: [0]; correction: 0; keepdim: true"]),
];
