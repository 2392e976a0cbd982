use super::shapes_common::{split_at, split_by_result_sizes};
use crate::{Ctx, Rule};
use melior::ir::Value;

/// `torch.hsplit`: tensor_split along dim 1 (dim 0 of a 1-D tensor).
pub const RULES: &[Rule] = &[
    Rule::custom("aten.hsplit.int", |c| {
        let x = c.args.tensor("self")?;
        split_by_result_sizes(c, x, split_dim(c, x)?)
    })
    .samples(&["self: T[6]; sections: 3", "self: T[2,6]; sections: 2", "self: T[2,4,3]; sections: 1", "self: T[2,0]; sections: 2"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"]),
    Rule::custom("aten.hsplit.array", |c| {
        let x = c.args.tensor("self")?;
        split_at(c, x, split_dim(c, x)?, &c.args.ints("indices")?)
    })
    .samples(&["self: T[6]; indices: [2,4]", "self: T[3,7]; indices: [1,5]", "self: T[3,5]; indices: [4,2]", "self: T[3,5]; indices: [-2,9]", "self: T[3,5]; indices: []"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"]),
];

fn split_dim<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>) -> Result<i64, String> {
    let rank = ctx.rank(x)?;
    if rank < 1 {
        return Err(format!("torch.hsplit needs a tensor of rank >= 1, got {rank}"));
    }
    Ok(if rank == 1 { 0 } else { 1 })
}
