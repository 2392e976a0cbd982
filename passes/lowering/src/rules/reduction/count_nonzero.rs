use super::math_common::{unranked_bool, lift0};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.count_nonzero.default", |c| {
        let dims = match c.args.opt_int("dim")? {
            Some(d) => vec![d],
            None => Vec::new(),
        };
        count(c, dims)
    })
    .samples(&["self: T[3,4]", "self: T[3,4]{-1..2}; dim: 1", "self: T[]", "self: T[0,3]; dim: 0"])
    .dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"]),
    Rule::custom("aten.count_nonzero.dim_IntList", |c| count(c, c.args.ints("dim")?))
        .samples(&["self: T[3,4,2]{-1..2}; dim: [0,2]", "self: T[3,4]; dim: []", "self: T[]; dim: [0]"])
        .dtypes(&["f32", "i64", "bool", "f16", "bf16", "f64", "i32", "i8", "u8"]),
];

/// The number of `x != 0` (NaN counts) over `dims` (all when empty), int64.
fn count<'c, 'a>(c: &Ctx<'c, 'a>, dims: Vec<i64>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let mut axes = Vec::new();
    for d in dims {
        axes.push(c.dim(d, rank)? as i64);
    }
    let (x, lifted) = lift0(c, x)?;
    let zero = c.b.const_like(x, 0.0)?;
    let z = c.b.onnx().equal(x, zero).typed(unranked_bool(c))?;
    let nz = c.b.onnx().not(z).typed(unranked_bool(c))?;
    let n = c.b.cast(nz, c.b.i64_type())?;
    let axes = (!axes.is_empty() && !lifted).then_some(axes);
    Ok(vec![c.reduce(crate::Reduction::Sum, n, axes.as_deref(), false, c.result_type(0)?)?])
}
