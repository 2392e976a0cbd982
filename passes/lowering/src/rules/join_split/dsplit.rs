use super::shapes_common::{split_at, split_by_result_sizes};
use crate::{Ctx, Rule};
use melior::ir::Value;

/// `torch.dsplit`: tensor_split along dim 2 of a tensor of rank >= 3.
pub const RULES: &[Rule] = &[
    Rule::custom("aten.dsplit.int", |c| {
        let x = c.args.tensor("self")?;
        split_by_result_sizes(c, x, split_dim(c, x)?)
    })
    .samples(&["self: T[2,2,6]; sections: 3", "self: T[1,2,4,3]; sections: 2"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"]),
    Rule::custom("aten.dsplit.array", |c| {
        let x = c.args.tensor("self")?;
        split_at(c, x, split_dim(c, x)?, &c.args.ints("indices")?)
    })
    .samples(&["self: T[2,2,6]; indices: [2,4]", "self: T[2,1,7]; indices: [5,1]", "self: T[1,2,5]; indices: [-2]"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"]),
];

fn split_dim<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>) -> Result<i64, String> {
    let rank = ctx.rank(x)?;
    if rank < 3 {
        return Err(format!("torch.dsplit needs a tensor of rank >= 3, got {rank}"));
    }
    Ok(2)
}
