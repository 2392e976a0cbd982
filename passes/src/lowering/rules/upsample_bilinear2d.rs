use super::common::resize;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.upsample_bilinear2d.vec", |c| resize(c, "linear", c.args.bool("align_corners")?, "input"))
        .samples(&[
            "input: T[1,2,3,4]; output_size: none; align_corners: false; scale_factors: [2.0,2.0]",
            "input: T[1,2,3,4]; output_size: none; align_corners: true; scale_factors: [2.0,2.0]",
            "input: T[1,2,3,4]; output_size: [5,7]; align_corners: false; scale_factors: none",
        ]),
    Rule::custom("aten.upsample_bilinear2d.default", |c| resize(c, "linear", c.args.bool("align_corners")?, "self"))
        .samples(&["self: T[1,2,3,4]; output_size: [6,8]; align_corners: false"]),
];
