use super::random_common::uniform_like;
use crate::Rule;

/// `U[0, 1)` shaped like `self`.
pub const RULES: &[Rule] = &[Rule::custom("aten.rand_like.default", |c| {
    let x = c.args.tensor("self")?;
    Ok(vec![uniform_like(c, x, c.result_element(0)?)?])
})
.samples(&["self: T[2,3]"])];
