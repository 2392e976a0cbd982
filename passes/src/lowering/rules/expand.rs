use super::common::expand_size;
use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.expand.default", |c| {
    let x = c.args.tensor("self")?;
    let size = expand_size(c, c.args.sym_ints("size")?)?;
    Ok(vec![c.op("Expand", &[x, size], &[])?])
})];
