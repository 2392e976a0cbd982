use super::mean::reduce_dims;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.amax.default", |c| reduce_dims(c, "ReduceMax"))
    .samples(&["self: T[2,3,4]; dim: [1]", "self: T[2,3]; dim: [-1]; keepdim: true", "self: T[2,3]"])
    .dtypes(&["f32", "i64"])];
