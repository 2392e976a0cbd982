use crate::{Attr, Rule};

/// `x.T`: all dims reversed.
pub const RULES: &[Rule] = &[Rule::custom("aten.numpy_T.default", |c| {
    let x = c.args.tensor("self")?;
    let perm: Vec<i64> = (0..c.rank(x)? as i64).rev().collect();
    Ok(vec![c.op("Transpose", &[x], &[("perm", Attr::Ints(perm))])?])
})
.samples(&["self: T[2,3]", "self: T[2,3,4]"])];
