use crate::lowering::{Attr, Rule};

pub const RULES: &[Rule] = &[Rule::custom("aten.gather.default", |c| {
    let x = c.args.tensor("self")?;
    let index = c.args.tensor("index")?;
    Ok(vec![c.op("GatherElements", &[x, index], &[("axis", Attr::Int(c.args.int("dim")?))])?])
})
.samples(&["self: T[3,4]; dim: 1; index: i64[3,2]{0..4}", "self: T[3,4]; dim: 0; index: i64[2,4]{0..3}"])];
