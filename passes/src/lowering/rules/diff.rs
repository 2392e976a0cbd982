use crate::lowering::{builder, Attr, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.diff.default", diff)
    .samples(&["self: T[3,5]", "self: T[3,5]; dim: 0; prepend: T[1,5]", "self: T[6]; n: 2", "self: bool[5]"])
    .dtypes(&["f32", "i64"])];

/// `x[1:] - x[:-1]` along `dim` (xor for bools), after concatenating
/// `prepend` / `append`; `n` times.
fn diff<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let mut x = ctx.args.tensor("self")?;
    let dim = ctx.args.int("dim")?;
    let n = ctx.args.int("n")?;
    let mut parts = Vec::new();
    if let Some(p) = ctx.args.opt_tensor("prepend")? {
        parts.push(b.cast_like(p, x)?);
    }
    parts.push(x);
    if let Some(a) = ctx.args.opt_tensor("append")? {
        parts.push(b.cast_like(a, x)?);
    }
    if parts.len() > 1 {
        x = b.op_like("Concat", &parts, &[("axis", Attr::Int(dim))], x)?;
    }
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let axes = b.const_i64s(&[dim])?;
    for _ in 0..n {
        let (zero, one, minus_one, end) =
            (b.const_i64s(&[0])?, b.const_i64s(&[1])?, b.const_i64s(&[-1])?, b.const_i64s(&[i64::MAX])?);
        let hi = b.op_like("Slice", &[x, one, end, axes], &[], x)?;
        let lo = b.op_like("Slice", &[x, zero, minus_one, axes], &[], x)?;
        x = b.op_like(if builder::is_bool(element) { "Xor" } else { "Sub" }, &[hi, lo], &[], x)?;
    }
    Ok(vec![x])
}
