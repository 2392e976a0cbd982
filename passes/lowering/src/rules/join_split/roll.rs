use crate::{builder, Ctx, IntArg, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.roll.default", roll)
    .samples(&[
        "self: T[3,5]; shifts: [1]; dims: [1]",
        "self: T[3,5]; shifts: [1,-2]; dims: [0,1]",
        "self: T[2,3]; shifts: [2]",
        "self: T[0,0,3]; shifts: [2]",
    ])
    .dtypes(&["f32", "i64", "f16", "bf16", "f64", "i32", "i8", "u8", "bool"])];

/// Per dim: `Concat(x[n-s:], x[:n-s])` with the shift taken modulo the
/// size (at conversion time when both are static, in the graph otherwise);
/// no dims means over the flattened tensor.
fn roll<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let mut x = ctx.args.tensor("self")?;
    let shifts = ctx.args.sym_ints("shifts")?;
    let dims = ctx.args.ints("dims")?;
    let flat = dims.is_empty();
    let original = x;
    if flat {
        x = b.onnx().reshape(x, b.const_i64s(&[-1])?, None).like(x)?;
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
        let axis = b.const_i64s(&[d as i64])?;
        let size = if flat { total } else { shape[d] };
        let (tail, head) = match (shift, size) {
            (IntArg::Static(shift), Some(n)) => {
                if n == 0 {
                    continue;
                }
                let s = shift.rem_euclid(n);
                if s == 0 {
                    continue;
                }
                let tail = b.onnx().slice(x, b.const_i64s(&[n - s])?, b.const_i64s(&[n])?, Some(axis), None).like(x)?;
                let head = b.onnx().slice(x, b.const_i64s(&[0])?, b.const_i64s(&[n - s])?, Some(axis), None).like(x)?;
                (tail, head)
            }
            // A dynamic size (Swin's shifted windows on a dynamic image) or
            // shift: the split point n - (shift mod n) computed in the graph
            // (Mod with fmod = 0 takes the divisor's sign like rem_euclid;
            // the divisor max(n, 1) keeps an empty dim empty).
            (shift, size) => {
                let i64_t = b.i64_type();
                let n = match size {
                    Some(n) => b.const_i64s(&[n])?,
                    None => {
                        let bounds = [b.const_i64s(&[d as i64])?, b.const_i64s(&[d as i64 + 1])?];
                        b.onnx().slice(b.shape(x)?, bounds[0], bounds[1], None, None).typed(b.unranked(i64_t))?
                    }
                };
                let divisor = b.onnx().max(&[n, b.const_i64s(&[1])?]).typed(b.unranked(i64_t))?;
                let s =
                    b.onnx().mod_(ctx.int_tensor(shift)?, divisor, Some(0)).typed(b.unranked(i64_t))?;
                let split = b.onnx().sub(n, s).typed(b.unranked(i64_t))?;
                let tail = b.onnx().slice(x, split, b.const_i64s(&[i64::MAX])?, Some(axis), None).like(x)?;
                let head = b.onnx().slice(x, b.const_i64s(&[0])?, split, Some(axis), None).like(x)?;
                (tail, head)
            }
        };
        x = b.onnx().concat(&[tail, head], d as i64).like(x)?;
    }
    if flat {
        let shape = b.shape(original)?;
        // allowzero: a 0 in the shape is an empty dim (a [0, 0, 0] input), not "copy".
        return Ok(vec![ctx.b.onnx().reshape(x, shape, Some(1)).typed(ctx.result_type(0)?)?]);
    }
    Ok(vec![x])
}
