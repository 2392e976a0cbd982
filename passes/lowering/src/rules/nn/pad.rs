use super::nn_common::pad;
use crate::Rule;

/// `F.pad` in TRAINING IR; the rule is constant_pad_nd's.
pub const RULES: &[Rule] = &[Rule::custom("aten.pad.default", pad)
    .samples(&[
        "self: T[2,3,4]; pad: [1,2]",
        "self: T[2,3,4]; pad: [1,0,2,1]; mode: \"constant\"; value: 1.5",
        "self: T[1,2,5]; pad: [2,1]; mode: \"reflect\"",
        "self: T[1,2,5]; pad: [2,1]; mode: \"replicate\"",
        "self: T[1,2,5]; pad: [2,1]; mode: \"circular\"",
        "self: T[1,2,4,5]; pad: [2,1,1,3]; mode: \"circular\"",
        "self: T[1,2,6]; pad: [-1,2]; mode: \"reflect\"",
        "self: T[1,2,6]; pad: [3,-2]; mode: \"replicate\"",
        "self: T[1,2,6]; pad: [-3,3]; mode: \"circular\"",
        "self: T[1,2,6]; pad: [-1,-2]; mode: \"constant\"; value: 2.0",
        "self: T[0,2,5]; pad: [2,1]; mode: \"circular\"",
        "self: T[0,2,5]; pad: [2,1]; mode: \"reflect\"",
        "self: T[0,2,5]; pad: [2,1]; mode: \"replicate\"",
    ])
    .dtypes(&["f32"])];
