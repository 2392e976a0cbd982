use crate::lowering::{builder, Attr, Ctx, IntArg, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.roll.default", roll)
    .samples(&[
        "self: T[3,5]; shifts: [1]; dims: [1]",
        "self: T[3,5]; shifts: [1,-2]; dims: [0,1]",
        "self: T[2,3]; shifts: [2]",
    ])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];

/// Per dim: `Concat(x[n-s:], x[:n-s])` with the shift taken modulo the
/// (static) size; no dims means over the flattened tensor.
fn roll<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let mut x = ctx.args.tensor("self")?;
    let shifts: Vec<i64> = ctx
        .args
        .sym_ints("shifts")?
        .into_iter()
        .map(|s| if let IntArg::Static(v) = s { Ok(v) } else { Err("a dynamic shift is not supported".to_string()) })
        .collect::<Result<_, _>>()?;
    let dims = ctx.args.ints("dims")?;
    let flat = dims.is_empty();
    let original = x;
    if flat {
        x = b.op_like("Reshape", &[x, b.const_i64s(&[-1])?], &[], x)?;
    }
    let dims = if flat { vec![0] } else { dims };
    if shifts.len() != dims.len() {
        return Err("shifts and dims differ in length".into());
    }
    let total: Option<i64> = builder::dims(original.r#type()).and_then(|d| d.into_iter().product());
    // The flattened tensor is 1-D of `total` elements.
    let shape = if flat { vec![total] } else { builder::dims(x.r#type()).ok_or("unknown rank")? };
    for (&shift, &dim) in shifts.iter().zip(&dims) {
        let d = ctx.norm_dim(dim, shape.len()) as usize;
        let n = if flat { total } else { shape[d] }.ok_or("roll needs a static size along the rolled dim")?;
        if n == 0 {
            continue;
        }
        let s = shift.rem_euclid(n);
        if s == 0 {
            continue;
        }
        let axis = b.const_i64s(&[d as i64])?;
        let tail = b.op_like("Slice", &[x, b.const_i64s(&[n - s])?, b.const_i64s(&[n])?, axis], &[], x)?;
        let head = b.op_like("Slice", &[x, b.const_i64s(&[0])?, b.const_i64s(&[n - s])?, axis], &[], x)?;
        x = b.op_like("Concat", &[tail, head], &[("axis", Attr::Int(d as i64))], x)?;
    }
    if flat {
        let shape = b.shape(original)?;
        return Ok(vec![ctx.op("Reshape", &[x, shape], &[])?]);
    }
    Ok(vec![x])
}
