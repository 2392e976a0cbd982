use crate::Rule;

/// `x.T`: all dims reversed.
pub const RULES: &[Rule] = &[Rule::custom("aten.numpy_T.default", |c| {
    let x = c.args.tensor("self")?;
    let perm: Vec<i64> = (0..c.rank(x)? as i64).rev().collect();
    Ok(vec![c.b.onnx().transpose(x, Some(&perm)).typed(c.result_type(0)?)?])
})
.samples(&["self: T[2,3]", "self: T[2,3,4]"])];
