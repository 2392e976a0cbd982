use super::random_common::normal_like;
use crate::Rule;

/// `N(0, 1)` shaped like `self`.
pub const RULES: &[Rule] = &[Rule::custom("aten.randn_like.default", |c| {
    let x = c.args.tensor("self")?;
    Ok(vec![normal_like(c, x, c.result_element(0)?)?])
})
.samples(&["self: T[2,3]"])];
