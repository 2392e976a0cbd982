use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.unsqueeze.default", |c| {
    let x = c.args.tensor("self")?;
    let axes = c.b.const_i64s(&[c.args.int("dim")?])?;
    Ok(vec![c.op("Unsqueeze", &[x, axes], &[])?])
})];
