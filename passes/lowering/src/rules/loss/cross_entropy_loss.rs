use super::common::{dim_size, element_count_f64};
use super::nll_common::nll;
use super::like_common::Like;
use crate::{builder, Ctx, IntArg, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.cross_entropy_loss.default", cross_entropy).samples(&[
    "self: T[4,3]; target: i64[4]{0..3}",
    "self: T[4,3]; target: i64[4]{0..3}; weight: T[3]{pos}; reduction: 0",
    "self: T[4,3]; target: i64[4]{-1..3}; weight: T[3]{pos}; ignore_index: -1; label_smoothing: 0.2",
    "self: T[4,3]; target: i64[4]{-1..3}; ignore_index: -1; label_smoothing: 0.1",
    "self: T[4,3]; target: i64[4]{-1..3}; ignore_index: -1; label_smoothing: 0.1; reduction: 0",
    "self: T[4,3]; target: i64[4]{0..3}; weight: T[3]{pos}; label_smoothing: 0.3; reduction: 2",
    "self: T[3]; target: i64[]{0..3}; label_smoothing: 0.1",
    "self: T[2,3,4]; target: i64[2,4]{0..3}; weight: T[3]{pos}; label_smoothing: 0.2",
    "self: T[4,3]; target: T[4,3]{pos}",
    "self: T[4,3]; target: T[4,3]{pos}; weight: T[3]{pos}; label_smoothing: 0.2; reduction: 0",
    "self: T[2,3,4]; target: T[2,3,4]{pos}; label_smoothing: 0.1; reduction: 2",
])];

/// `log_softmax` over the class dim, then nll (class targets) or
/// `-sum(target * logp * weight)` (probability targets), with torch's label
/// smoothing: `(1 - ls) * loss + ls / C * smooth_loss`, where the smooth
/// loss is `-sum_c(logp * weight)`, 0 at ignored targets, and its mean
/// divides by the kept targets' weights (or count).
fn cross_entropy<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let target = c.args.tensor("target")?;
    let weight = c.args.opt_tensor("weight")?;
    let ls = c.args.float("label_smoothing")?;
    let reduction = c.args.int("reduction")?;
    let rank = c.rank(x)?;
    if rank == 0 {
        return Err("cross_entropy of a 0-d input".into());
    }
    let class_dim: i64 = if rank == 1 { 0 } else { 1 };
    let dims = builder::dims(x.r#type()).ok_or("unknown rank")?;
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    let ty = b.unranked(element);
    let e = Like::new(c, x);
    // `ls / C`, for label smoothing: C static, or read from the shape.
    let smoothing_share = || -> Result<Value<'c, 'a>, String> {
        match dims[class_dim as usize] {
            Some(classes) => e.k(ls / classes as f64),
            None => {
                let classes = c.squeeze(dim_size(c, x, class_dim)?, &[0])?;
                e.div(e.k(ls)?, b.cast(classes, element)?)
            }
        }
    };
    let logp = b.onnx().log_softmax(x, Some(class_dim)).typed(x.r#type())?;
    // [C] -> broadcastable along the class dim.
    let weight_b = match weight {
        Some(w) if rank > 2 => Some(c.unsqueeze(w, &(1..rank as i64 - 1).collect::<Vec<_>>())?),
        other => other,
    };
    let target_float = builder::element_type(target.r#type()).is_some_and(builder::is_float);
    if target_float {
        let mut t = target;
        if ls > 0.0 {
            t = e.add(e.mul(t, e.k(1.0 - ls)?)?, smoothing_share()?)?;
        }
        let mut prod = e.mul(logp, t)?;
        if let Some(w) = weight_b {
            prod = e.mul(prod, w)?;
        }
        let l = e.neg(c.reduce(crate::Reduction::Sum, prod, Some(&[class_dim]), false, ty)?)?;
        return Ok(vec![match reduction {
            0 => c.b.onnx().identity(l).typed(c.result_type(0)?)?,
            1 => {
                // Sum over the batch elements divided by their count.
                let s = c.reduce(crate::Reduction::Sum, l, None, false, ty)?;
                let others: Vec<i64> = (0..rank as i64).filter(|&d| d != class_dim).collect();
                let statics: Option<Vec<i64>> = others.iter().map(|&d| dims[d as usize]).collect();
                let n = match statics {
                    Some(sizes) => e.k(sizes.iter().map(|&v| v as f64).product())?,
                    None => b.cast(element_count_f64(c, x, &others)?, element)?,
                };
                c.b.onnx().div(s, n).typed(c.result_type(0)?)?
            }
            2 => c.reduce(crate::Reduction::Sum, l, None, false, c.result_type(0)?)?,
            r => return Err(format!("loss reduction {r}")),
        }]);
    }
    let (nll_loss, total) = nll(c, logp, target, weight)?;
    if ls <= 0.0 {
        return Ok(vec![nll_loss]);
    }
    let mut lw = logp;
    if let Some(w) = weight_b {
        lw = e.mul(lw, w)?;
    }
    let smooth = e.neg(c.reduce(crate::Reduction::Sum, lw, Some(&[class_dim]), false, ty)?)?;
    let ignore = match c.args.sym_int("ignore_index")? {
        IntArg::Static(i) => b.const_i64_scalar(i)?,
        IntArg::Dynamic(v) => c.squeeze(v, &[0])?,
    };
    let ign = e.equal(b.cast_like_type(target, b.i64_type())?, ignore)?;
    let smooth = e.where_(ign, e.k(0.0)?, smooth)?;
    let smooth = match reduction {
        0 => smooth,
        1 => {
            let s = c.reduce(crate::Reduction::Sum, smooth, None, false, ty)?;
            let denom = if weight.is_some() {
                total
            } else {
                let kept = b.cast(e.not(ign)?, element)?;
                c.reduce(crate::Reduction::Sum, kept, None, false, ty)?
            };
            e.div(s, denom)?
        }
        _ => c.reduce(crate::Reduction::Sum, smooth, None, false, ty)?,
    };
    let a = e.mul(nll_loss, e.k(1.0 - ls)?)?;
    let s = e.mul(smooth, smoothing_share()?)?;
    Ok(vec![c.b.onnx().add(a, s).typed(c.result_type(0)?)?])
}
