use super::nn_common::pad_rule;
use crate::Rule;

/// `F.pad(mode="replicate")` in core ATen; negative pads crop; unbatched inputs.
pub const RULES: &[Rule] = &[Rule::custom("aten.replication_pad2d.default", |c| pad_rule(c, "replicate", 2))
    .samples(&["self: T[1,2,4,5]; padding: [1,2,3,1]", "self: T[2,4,5]; padding: [2,2,1,1]", "self: T[1,1,5,6]; padding: [-1,2,2,-3]", "self: T[0,2,4,5]; padding: [1,1,1,1]"])
    .dtypes(&["f32"])];
