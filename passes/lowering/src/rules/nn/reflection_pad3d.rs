use super::nn_common::pad_rule;
use crate::Rule;

/// `F.pad(mode="reflect")` in core ATen; negative pads crop; unbatched inputs.
pub const RULES: &[Rule] = &[Rule::custom("aten.reflection_pad3d.default", |c| pad_rule(c, "reflect", 3))
    .samples(&["self: T[1,2,3,4,5]; padding: [1,2,2,1,1,0]", "self: T[2,3,4,5]; padding: [1,1,1,1,1,1]", "self: T[1,1,4,4,5]; padding: [-1,2,0,1,2,-1]"])
    .dtypes(&["f32"])];
