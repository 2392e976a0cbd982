//! The negative log-likelihood shared by the nll_loss family and cross_entropy_loss. Not a rule file.

use super::like_common::Like;
use crate::{builder, Ctx, IntArg};
use melior::ir::{Value, ValueLike};

/// The nll loss of the op's `self` / `target` / `weight` / `reduction` /
/// `ignore_index`, with its total weight.
pub(super) fn nll_rule<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let x = c.args.tensor("self")?;
    let target = c.args.tensor("target")?;
    nll(c, x, target, c.args.opt_tensor("weight")?)
}

/// `-w[t] * x[n, t, ...]` per element (0 where `t == ignore_index`);
/// `mean` divides the sum by the sum of the weights of the kept elements.
/// Returns the reduced loss typed like result 0, and the total weight.
pub(super) fn nll<'c, 'a>(
    c: &Ctx<'c, 'a>,
    x: Value<'c, 'a>,
    target: Value<'c, 'a>,
    weight: Option<Value<'c, 'a>>,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let b = &c.b;
    let reduction = c.args.int("reduction")?;
    let ignore = match c.args.sym_int("ignore_index")? {
        IntArg::Static(i) => b.const_i64_scalar(i)?,
        IntArg::Dynamic(v) => c.squeeze(v, &[0])?,
    };
    let e = Like::new(c, x);
    let unbatched = c.rank(x)? == 1;
    let (x, target) = if unbatched { (c.unsqueeze(x, &[0])?, c.unsqueeze(target, &[0])?) } else { (x, target) };
    let target = b.cast_like_type(target, b.i64_type())?;
    let ign = e.equal(target, ignore)?;
    let zero_i = b.const_i64_scalar(0)?;
    let safe = b.onnx().where_(ign, zero_i, target).like(target)?;
    let picked = b.onnx().gather_elements(x, c.unsqueeze(safe, &[1])?, Some(1)).like(x)?;
    let picked = c.squeeze(picked, &[1])?;
    let w = match weight {
        Some(w) => b.onnx().gather(w, safe, Some(0)).like(x)?,
        None => e.add(e.mul(picked, e.k(0.0)?)?, e.k(1.0)?)?,
    };
    let w = e.where_(ign, e.k(0.0)?, w)?;
    let loss = e.mul(e.neg(picked)?, w)?;
    let ty = b.unranked(builder::element_type(x.r#type()).ok_or("not a tensor")?);
    let total = c.reduce(crate::Reduction::Sum, w, None, false, ty)?;
    let out = match reduction {
        0 => {
            let l = if unbatched { c.squeeze(loss, &[0])? } else { loss };
            c.b.onnx().identity(l).typed(c.result_type(0)?)?
        }
        1 => {
            let s = c.reduce(crate::Reduction::Sum, loss, None, false, ty)?;
            c.b.onnx().div(s, total).typed(c.result_type(0)?)?
        }
        2 => c.reduce(crate::Reduction::Sum, loss, None, false, c.result_type(0)?)?,
        r => return Err(format!("loss reduction {r}")),
    };
    Ok((out, total))
}
