use crate::lowering::Rule;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.fill.Scalar", |c| {
        let x = c.args.tensor("self")?;
        let v = c.tensor_as("value", c.result_element(0)?)?;
        let shape = c.b.shape(x)?;
        Ok(vec![c.op("Expand", &[v, shape], &[])?])
    }),
    Rule::custom("aten.fill.Tensor", |c| {
        let x = c.args.tensor("self")?;
        let v = c.tensor_as("value", c.result_element(0)?)?;
        let shape = c.b.shape(x)?;
        Ok(vec![c.op("Expand", &[v, shape], &[])?])
    }),
];
