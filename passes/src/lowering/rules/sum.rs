use super::mean::{reduce_all, reduce_dims};
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.sum.dim_IntList", |c| reduce_dims(c, "ReduceSum")),
    Rule::custom("aten.sum.default", |c| reduce_all(c, "ReduceSum")),
];
