use crate::Rule;

/// `self` takes `src`'s values, cast and broadcast to `self`'s type and shape.
pub const RULES: &[Rule] = &[Rule::custom("aten.copy.default", |c| {
    let x = c.args.tensor("self")?;
    let src = c.tensor_as("src", c.result_element(0)?)?;
    let shape = c.b.shape(x)?;
    Ok(vec![c.b.onnx().expand(src, shape).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]; src: T[3]", "self: T[2,3]; src: i64[2,3]"])];
