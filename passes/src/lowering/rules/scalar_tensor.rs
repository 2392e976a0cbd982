use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.scalar_tensor.default", |c| {
    Ok(vec![c.b.const_scalar(c.result_element(0)?, c.args.number("s")?.as_f64())?])
})];
