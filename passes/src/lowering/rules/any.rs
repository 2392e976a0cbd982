use crate::lowering::Rule;

/// `any` = max over the dim of the values as int64, then != 0.
pub const RULES: &[Rule] = &[Rule::custom("aten.any.dim", |c| {
    let x = c.args.tensor("self")?;
    let x = c.b.cast_like_type(x, c.b.i64_type())?;
    let dim = c.args.int("dim")?;
    let keepdim = c.args.bool("keepdim")?;
    let m = c.reduce("ReduceMax", x, Some(&[dim]), keepdim, c.b.unranked(c.b.i64_type()))?;
    let zero = c.b.const_i64_scalar(0)?;
    let eq = c.b.op("Equal", &[m, zero], &[], c.result_type(0)?)?;
    Ok(vec![c.op("Not", &[eq], &[])?])
})
.samples(&["self: T[3,4]; dim: 1", "self: T[3,4]; dim: 0; keepdim: true", "self: i64[3,4]{0..2}; dim: -1"])
.dtypes(&["bool"])];
