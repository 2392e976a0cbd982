use crate::lowering::{Attr, Rule};

pub const RULES: &[Rule] = &[Rule::custom("aten.permute.default", |c| {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let perm: Vec<i64> = c.args.ints("dims")?.into_iter().map(|d| c.norm_dim(d, rank)).collect();
    Ok(vec![c.op("Transpose", &[x], &[("perm", Attr::Ints(perm))])?])
})];
