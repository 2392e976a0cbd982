use super::shapes_common::reverse;
use crate::Rule;

/// `torch.flipud`: dim 0 reversed (rank >= 1).
pub const RULES: &[Rule] = &[Rule::custom("aten.flipud.default", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    if rank < 1 {
        return Err("flipud needs a tensor of rank >= 1, got a 0-d tensor".into());
    }
    Ok(vec![reverse(c, x, &[0])?])
})
.samples(&["self: T[3,4]", "self: T[5]", "self: T[2,3,4]", "self: T[0,2]"])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
