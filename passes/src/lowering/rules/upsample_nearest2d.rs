use super::common::resize;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.upsample_nearest2d.vec", |c| resize(c, "nearest", false, "input")).samples(&[
        "input: T[1,2,3,4]; output_size: none; scale_factors: [2.0,2.0]",
        "input: T[1,2,3,4]; output_size: [5,7]; scale_factors: none",
    ]),
    Rule::custom("aten.upsample_nearest2d.default", |c| resize(c, "nearest", false, "self"))
        .samples(&["self: T[1,2,3,4]; output_size: [6,8]"]),
];
