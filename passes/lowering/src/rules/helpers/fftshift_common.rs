//! The fftshift / ifftshift roll shared by fft_fftshift and fft_ifftshift. Not a rule file.

use super::common::dim_size;
use crate::{builder, Ctx};
use melior::ir::{Value, ValueLike};

/// `fftshift` / `ifftshift`: a roll of every listed dim (all dims when
/// `dim` is None) by `n // 2` (fftshift) or `-(n // 2)` (ifftshift), as
/// `Concat(x[n-s:], x[:n-s])`, the split point computed in the graph along
/// a dynamic dim.
pub(super) fn shift<'c, 'a>(ctx: &Ctx<'c, 'a>, inverse: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &ctx.b;
    let mut x = ctx.args.tensor("self")?;
    let sizes = builder::dims(x.r#type()).ok_or("fftshift needs an input of known rank")?;
    let rank = sizes.len();
    let dims: Vec<usize> = if ctx.args.is_none("dim")? {
        (0..rank).collect()
    } else {
        ctx.args.ints("dim")?.into_iter().map(|d| ctx.dim(d, rank)).collect::<Result<_, _>>()?
    };
    if rank == 0 {
        // torch's roll needs a dim to shift along.
        return Err("fftshift / ifftshift of a 0-d tensor (torch refuses it: no dim to roll)".into());
    }
    for d in dims {
        let axis = b.const_i64s(&[d as i64])?;
        let split = match sizes[d] {
            Some(n) => {
                if n == 0 {
                    continue;
                }
                let s = if inverse { (-(n / 2)).rem_euclid(n) } else { (n / 2).rem_euclid(n) };
                if s == 0 {
                    continue;
                }
                b.const_i64s(&[n - s])?
            }
            // A dynamic size: the elements from n - n // 2 (fftshift) or
            // n // 2 (ifftshift) on go in front, computed in the graph.
            None => {
                let n = dim_size(ctx, x, d as i64)?;
                let i64_1d = b.unranked(b.i64_type());
                let n = if inverse { n } else { b.onnx().add(n, b.const_i64s(&[1])?).typed(i64_1d)? };
                b.onnx().div(n, b.const_i64s(&[2])?).typed(i64_1d)?
            }
        };
        let tail = b.onnx().slice(x, split, b.const_i64s(&[i64::MAX])?, Some(axis), None).like(x)?;
        let head = b.onnx().slice(x, b.const_i64s(&[0])?, split, Some(axis), None).like(x)?;
        x = b.onnx().concat(&[tail, head], d as i64).like(x)?;
    }
    Ok(vec![ctx.b.onnx().identity(x).typed(ctx.result_type(0)?)?])
}
