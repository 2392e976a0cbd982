//! Pooled bags of embedding rows shared by embedding_bag and _embedding_bag. Not a rule file.

use crate::{builder, Ctx};
use melior::ir::{Type, Value, ValueLike};

/// Pooled bags of embedding rows (result 0), for 1-D `indices` split by
/// `offsets` (what F.embedding_bag passes; 2-D inputs are flattened in
/// Python). Each index gets its bag (`#offsets <= position - 1`); a [B, L]
/// membership mask (without `padding_idx` entries, and without positions past
/// the last offset with `include_last_offset`) sums rows by MatMul, divides
/// by the bag size for mean, masks a ReduceMax for max. Empty bags give 0,
/// like torch. Results 1..3 (offset2bag, bag_size, max_indices) only serve
/// the backward: a graph that reads them is refused.
pub(super) fn embedding_bag<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    for i in 1..4 {
        let r = crate::ir::result_at(c.args.op, i).ok_or_else(|| format!("_embedding_bag has no result {i}"))?;
        if crate::ir::has_uses(r) {
            return Err("embedding_bag's offset2bag / bag_size / max_indices results are used; only the pooled output is supported".into());
        }
    }
    let b = &c.b;
    let w = c.args.tensor("weight")?;
    let element = builder::element_type(w.r#type()).ok_or("not a tensor")?;
    let i64t = b.i64_type();
    let un_i = b.unranked(i64t);
    let idx = b.cast_like_type(c.args.tensor("indices")?, i64t)?;
    if c.rank(idx)? != 1 {
        return Err("embedding_bag with indices that are not 1-D".into());
    }
    let offsets = b.cast_like_type(c.args.tensor("offsets")?, i64t)?;
    let mode = c.args.int("mode")?;
    let include_last = c.args.bool("include_last_offset")?;
    let mut padding_idx =
        if c.args.schema.arg("padding_idx").is_some() { c.args.opt_int("padding_idx")? } else { None };
    // `embedding_bag.padding_idx` takes Python's padding_idx as given (None
    // = no padding) and ATen counts a negative one from the end;
    // `_embedding_bag` gets it normalized, with -1 meaning none.
    if c.args.schema.name == "embedding_bag" && c.args.schema.overload == "padding_idx" {
        if let Some(p) = padding_idx.filter(|&p| p < 0) {
            let rows = builder::dims(w.r#type())
                .and_then(|d| d.first().copied().flatten())
                .ok_or("a negative padding_idx needs a static number of embeddings")?;
            if p < -rows {
                return Err(format!("padding_idx {p} is out of range for {rows} embeddings"));
            }
            padding_idx = Some(p + rows);
        }
    }
    // No bags (statically): an empty [0, D] result; torch reads no index
    // then (so out-of-range ones pass in sum / mean mode) and Gather would fail.
    let n_offsets = builder::dims(offsets.r#type()).and_then(|d| d.first().copied().flatten());
    let out = if n_offsets == Some(0) || (include_last && n_offsets == Some(1)) {
        let d = b.onnx().shape(w, None, Some(1)).typed(un_i)?;
        let shape = b.onnx().concat(&[b.const_i64s(&[0])?, d], 0).typed(un_i)?;
        c.b.onnx().expand(b.const_scalar(element, 0.0)?, shape).typed(c.result_type(0)?)?
    } else {
        pooled(c, w, idx, offsets, mode, include_last, padding_idx)?
    };
    // Unused auxiliary results (checked above): zeros of their rank and
    // element type, for the dead-code pass to drop (a symbolic dim, e.g. a
    // dynamic number of bags, is built as 1: nothing reads it).
    let mut results = vec![out];
    for i in 1..4 {
        let ty = c.result_type(i)?;
        let el = builder::element_type(ty).ok_or("not a tensor")?;
        let shape: Vec<i64> = builder::dims(ty).ok_or("unknown rank")?.into_iter().map(|d| d.unwrap_or(1)).collect();
        let shape = b.const_i64s(&shape)?;
        results.push(b.onnx().expand(b.const_scalar(el, 0.0)?, shape).typed(ty)?);
    }
    Ok(results)
}

/// Result 0 of `embedding_bag` with at least one bag.
fn pooled<'c, 'a>(
    c: &Ctx<'c, 'a>,
    w: Value<'c, 'a>,
    idx: Value<'c, 'a>,
    offsets: Value<'c, 'a>,
    mode: i64,
    include_last: bool,
    padding_idx: Option<i64>,
) -> Result<Value<'c, 'a>, String> {
    let b = &c.b;
    let element = builder::element_type(w.r#type()).ok_or("not a tensor")?;
    let i64t = b.i64_type();
    let un_i = b.unranked(i64t);
    let bool_t: Type = melior::ir::r#type::IntegerType::new(b.context, 1).into();
    let un_b = b.unranked(bool_t);
    let zero = b.const_i64_scalar(0)?;
    let one = b.const_i64_scalar(1)?;
    let length = b.onnx().shape(idx, None, None).typed(un_i)?;
    let length = c.squeeze(length, &[0])?;
    let positions = b.onnx().range(zero, length, one, None).typed(un_i)?;
    let starts = if include_last { super::nn_common::slice(c, offsets, &[0], &[0], &[-1])? } else { offsets };
    let bags = b.onnx().shape(starts, None, None).typed(un_i)?;
    let bags = c.squeeze(bags, &[0])?;
    // bag[l] = #(starts <= l) - 1.
    let le = b.onnx().less_or_equal(c.unsqueeze(starts, &[0])?, c.unsqueeze(positions, &[1])?).typed(un_b)?;
    let count = c.reduce(crate::Reduction::Sum, b.cast(le, i64t)?, Some(&[1]), false, un_i)?;
    let bag = b.onnx().sub(count, one).typed(un_i)?;
    let bag_ids = b.onnx().range(zero, bags, one, None).typed(un_i)?;
    let mut mask = b.onnx().equal(c.unsqueeze(bag, &[0])?, c.unsqueeze(bag_ids, &[1])?).typed(un_b)?;
    if include_last {
        let last = super::nn_common::slice(c, offsets, &[0], &[-1], &[i64::MAX])?;
        let inside = b.onnx().less(positions, last).typed(un_b)?;
        mask = b.onnx().and(mask, c.unsqueeze(inside, &[0])?).typed(un_b)?;
    }
    if let Some(p) = padding_idx.filter(|&p| p >= 0) {
        let not_pad = b.onnx().not(b.onnx().equal(idx, b.const_i64_scalar(p)?).typed(un_b)?).typed(un_b)?;
        mask = b.onnx().and(mask, c.unsqueeze(not_pad, &[0])?).typed(un_b)?;
    }
    let mut rows = b.onnx().gather(w, idx, Some(0)).like(w)?;
    if let Some(psw) = c.args.opt_tensor("per_sample_weights")? {
        if mode != 0 {
            return Err("per_sample_weights only work with mode='sum'".into());
        }
        let psw = b.cast_like_type(psw, element)?;
        rows = b.onnx().mul(rows, c.unsqueeze(psw, &[1])?).like(w)?;
    }
    let maskf = b.cast(mask, element)?;
    let sizes = c.reduce(crate::Reduction::Sum, maskf, Some(&[1]), true, b.unranked(element))?;
    let out = match mode {
        0 => b.onnx().mat_mul(maskf, rows).like(w)?,
        1 => {
            let sum = b.onnx().mat_mul(maskf, rows).like(w)?;
            let denom = b.onnx().max(&[sizes, b.const_scalar(element, 1.0)?]).like(w)?;
            b.onnx().div(sum, denom).like(w)?
        }
        2 => {
            let neg_inf = b.const_scalar(element, f64::NEG_INFINITY)?;
            let picked = b.onnx().where_(c.unsqueeze(mask, &[2])?, c.unsqueeze(rows, &[0])?, neg_inf).like(w)?;
            let max = c.reduce(crate::Reduction::Max, picked, Some(&[1]), false, b.unranked(element))?;
            let nonempty = b.onnx().greater(sizes, b.const_scalar(element, 0.0)?).typed(un_b)?;
            b.onnx().where_(nonempty, max, b.const_scalar(element, 0.0)?).like(w)?
        }
        m => return Err(format!("embedding_bag mode {m}")),
    };
    c.b.onnx().identity(out).typed(c.result_type(0)?)
}
