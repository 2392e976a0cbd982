use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.diff.default", diff)
    .samples(&["self: T[3,5]", "self: T[3,5]; dim: 0; prepend: T[1,5]", "self: T[6]; n: 2", "self: bool[5]",
        "self: T[3,5]; n: 0; prepend: T[3,2]; append: T[3,1]", "self: T[4]; n: 0", "self: T[2,4]; dim: -2; append: T[1,4]",
        "self: T[3]; n: 5", "self: T[0,3]; dim: 1"])
    .dtypes(&["f32", "i64", "i32", "f64"])];

/// `x[1:] - x[:-1]` along `dim` (xor for bools), after concatenating
/// `prepend` / `append`; `n` times.
fn diff<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let mut x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    if rank == 0 {
        return Err("diff expects a tensor of at least one dimension".into());
    }
    let dim = ctx.dim(ctx.args.int("dim")?, rank)? as i64;
    let n = ctx.args.int("n")?;
    if n < 0 {
        return Err(format!("diff: order must be non-negative, got {n}"));
    }
    if n == 0 {
        // torch returns the input itself, without prepend/append.
        return Ok(vec![x]);
    }
    let mut parts = Vec::new();
    if let Some(p) = ctx.args.opt_tensor("prepend")? {
        parts.push(b.cast_like(p, x)?);
    }
    parts.push(x);
    if let Some(a) = ctx.args.opt_tensor("append")? {
        parts.push(b.cast_like(a, x)?);
    }
    if parts.len() > 1 {
        x = b.onnx().concat(&parts, dim).like(x)?;
    }
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let axes = b.const_i64s(&[dim])?;
    for _ in 0..n {
        let (zero, one, minus_one, end) =
            (b.const_i64s(&[0])?, b.const_i64s(&[1])?, b.const_i64s(&[-1])?, b.const_i64s(&[i64::MAX])?);
        let hi = b.onnx().slice(x, one, end, Some(axes), None).like(x)?;
        let lo = b.onnx().slice(x, zero, minus_one, Some(axes), None).like(x)?;
        let d = if builder::is_bool(element) { b.onnx().xor(hi, lo) } else { b.onnx().sub(hi, lo) };
        x = d.like(x)?;
    }
    Ok(vec![x])
}
