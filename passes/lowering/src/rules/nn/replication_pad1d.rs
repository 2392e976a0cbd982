use super::nn_common::pad_rule;
use crate::Rule;

/// `F.pad(mode="replicate")` in core ATen; negative pads crop; unbatched inputs.
pub const RULES: &[Rule] = &[Rule::custom("aten.replication_pad1d.default", |c| pad_rule(c, "replicate", 1))
    .samples(&["self: T[1,2,5]; padding: [2,1]", "self: T[2,5]; padding: [1,3]", "self: T[1,2,6]; padding: [-1,2]", "self: T[1,2,6]; padding: [3,-2]", "self: T[1,2,4]; padding: [-4,3]", "self: T[0,2,5]; padding: [1,1]"])
    .dtypes(&["f32"])];
