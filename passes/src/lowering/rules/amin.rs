use super::mean::reduce_dims;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.amin.default", |c| reduce_dims(c, "ReduceMin"))];
