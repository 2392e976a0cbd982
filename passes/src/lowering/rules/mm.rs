use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.mm.default", |c| {
    Ok(vec![c.op("MatMul", &[c.args.tensor("self")?, c.args.tensor("mat2")?], &[])?])
})];
