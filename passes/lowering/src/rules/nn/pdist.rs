use super::distance_common::pdist;
use crate::Rule;

pub const RULES: &[Rule] =
    &[Rule::custom("aten.pdist.default", pdist).samples(&["self: T[4,3]", "self: T[5,2]; p: 1.0"])];
