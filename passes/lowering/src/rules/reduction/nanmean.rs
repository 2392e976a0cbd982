use super::reduce_common::nan_reduce;
use crate::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.nanmean.default", |c| nan_reduce(c, true)).samples(&[
    "self: T[3,4]",
    "self: T[3,4]; dim: [1]",
    "self: T[3,4,2]; dim: [0,2]; keepdim: true",
    "self: T[]; dim: [0]",
])];
