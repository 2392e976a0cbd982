use crate::{builder, Ctx, IntArg, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.linalg_vander.default", vander)
    .samples(&["x: T[4]", "x: T[4]; N: 2", "x: T[2,3]; N: 5", "x: T[0]; N: 3", "x: T[3]; N: 2", "x: T[]; N: 3"])
    .dtypes(&["f32", "f64", "i64"])];

/// Columns `1, x, x*x, ...` (torch's cumulative product, same rounding),
/// stacked along a new last dim. `N` (default: the size of the last dim)
/// must be static.
fn vander<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let el = c.result_element(0)?;
    let x = c.tensor_as("x", el)?;
    let rank = c.rank(c.args.tensor("x")?)?;
    let n = match c.args.opt_sym_int("N")? {
        Some(IntArg::Static(n)) => n,
        Some(IntArg::Dynamic(_)) => return Err("linalg.vander with a dynamic N is not supported".into()),
        None if rank == 0 => 1,
        None => builder::dims(c.args.tensor("x")?.r#type())
            .and_then(|d| d[rank - 1])
            .ok_or("linalg.vander with N=None on a dynamic last dim is not supported")?,
    };
    if n < 2 {
        return Err(format!("linalg.vander: N must be greater than 1, got {n}"));
    }
    let b = &c.b;
    // torch treats a 0-d x as a 1-element vector.
    let x = if rank == 0 { c.unsqueeze(x, &[0])? } else { x };
    let shape = b.onnx().shape(x, None, None).typed(b.unranked(b.i64_type()))?;
    let ones = b.onnx().expand(b.const_like(x, 1.0)?, shape).like(x)?;
    let xu = c.unsqueeze(x, &[-1])?;
    let mut col = c.unsqueeze(ones, &[-1])?;
    let mut cols = vec![col];
    for _ in 1..n {
        col = b.onnx().mul(col, xu).like(x)?;
        cols.push(col);
    }
    Ok(vec![c.b.onnx().concat(&cols, -1).typed(c.result_type(0)?)?])
}
