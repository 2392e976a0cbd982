use super::constant_pad_nd::pad;
use crate::lowering::Rule;

/// `F.pad` in TRAINING IR; the rule is constant_pad_nd's.
pub const RULES: &[Rule] = &[Rule::custom("aten.pad.default", pad)
    .samples(&[
        "self: T[2,3,4]; pad: [1,2]",
        "self: T[2,3,4]; pad: [1,0,2,1]; mode: \"constant\"; value: 1.5",
        "self: T[1,2,5]; pad: [2,1]; mode: \"reflect\"",
        "self: T[1,2,5]; pad: [2,1]; mode: \"replicate\"",
        "self: T[1,2,5]; pad: [2,1]; mode: \"circular\"",
    ])
    .dtypes(&["f32"])];
