use super::special_common::mvlgamma;
use crate::Rule;

pub const RULES: &[Rule] =
    &[Rule::custom("aten.mvlgamma.default", mvlgamma).samples(&["self: T[2,3]{pos}; p: 1", "self: T[]{pos}; p: 1"])];
