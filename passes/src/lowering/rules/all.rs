use super::any::any_all;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.all.default", |c| any_all(c, None, false))
        .samples(&["self: T[3,4]", "self: T[0]"])
        .dtypes(&["bool"]),
    Rule::custom("aten.all.dim", |c| any_all(c, Some(c.args.int("dim")?), false))
        .samples(&["self: T[3,4]; dim: 1", "self: T[3,4]; dim: 0; keepdim: true"])
        .dtypes(&["bool"]),
];
