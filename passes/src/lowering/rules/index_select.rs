use crate::lowering::{Attr, Rule};

pub const RULES: &[Rule] = &[Rule::custom("aten.index_select.default", |c| {
    let x = c.args.tensor("self")?;
    let index = c.args.tensor("index")?;
    Ok(vec![c.op("Gather", &[x, index], &[("axis", Attr::Int(c.args.int("dim")?))])?])
})
.samples(&["self: T[4,5]; dim: 1; index: i64[3]{0..5}", "self: T[4,5]; dim: 0; index: i64[2]{0..4}"])];
