use super::shapes_common::{split_at, split_by_result_sizes};
use crate::{Ctx, Rule};
use melior::ir::Value;

/// `torch.vsplit`: tensor_split along dim 0 of a tensor of rank >= 2.
pub const RULES: &[Rule] = &[
    Rule::custom("aten.vsplit.int", |c| {
        let x = c.args.tensor("self")?;
        split_by_result_sizes(c, x, split_dim(c, x)?)
    })
    .samples(&["self: T[6,2]; sections: 3", "self: T[4,3,2]; sections: 2", "self: T[0,2]; sections: 2"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"]),
    Rule::custom("aten.vsplit.array", |c| {
        let x = c.args.tensor("self")?;
        split_at(c, x, split_dim(c, x)?, &c.args.ints("indices")?)
    })
    .samples(&["self: T[6,2]; indices: [2,4]", "self: T[7,3]; indices: [5,1]", "self: T[5,2]; indices: [-1]", "self: T[5,2]; indices: [0,0,8]"])
    .dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"]),
];

fn split_dim<'c, 'a>(ctx: &Ctx<'c, 'a>, x: Value<'c, 'a>) -> Result<i64, String> {
    let rank = ctx.rank(x)?;
    if rank < 2 {
        return Err(format!("torch.vsplit needs a tensor of rank >= 2, got {rank}"));
    }
    Ok(0)
}
