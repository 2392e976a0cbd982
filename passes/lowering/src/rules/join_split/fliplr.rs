use super::shapes_common::reverse;
use crate::Rule;

/// `torch.fliplr`: dim 1 reversed (rank >= 2).
pub const RULES: &[Rule] = &[Rule::custom("aten.fliplr.default", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    if rank < 2 {
        return Err(format!("fliplr needs a tensor of rank >= 2, got {rank}"));
    }
    Ok(vec![reverse(c, x, &[1])?])
})
.samples(&["self: T[3,4]", "self: T[2,3,4]", "self: T[2,0]"])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
