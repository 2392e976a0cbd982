use super::polynomial_common::build_loop;
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

/// `torch._grouped_mm` (`F.grouped_mm`), and transformers' float32 stand-in
/// `transformers::grouped_mm_fallback` that the importer reads as this op:
/// the experts of Hugging Face mixture-of-experts models (Mixtral, Qwen-MoE,
/// OLMoE, ...) under torch.export.
pub const RULES: &[Rule] = &[Rule::custom("aten._grouped_mm.default", grouped_mm)
    .samples(&[
        // Rows sorted by group; `offs` holds each group's end (the last one
        // is the row count: ATen leaves rows past it unwritten).
        "self: T[6,8]; mat2: T[1,8,8]; offs: i32[1]{6..7}",
        // Two groups ending at 6: all rows in group 0, group 1 empty.
        "self: T[6,8]; mat2: T[2,8,8]; offs: i32[2]{6..7}",
        // 3-D x 3-D: a batched matmul.
        "self: T[2,6,8]; mat2: T[2,8,8]",
    ])
    .refuses(&[("self: T[6,8]; mat2: T[8,8]; offs: i32[2]{0..7}", "only 2-D x 3-D")])
    .dtypes(&["f32", "f16"])];

/// 2-D x 3-D with offsets: rows `offs[g-1]..offs[g]` of `self` times
/// `mat2[g]`, by an ONNX `Loop` over the groups that appends each group's
/// product (exactly the matmuls torch does, nothing computed for other
/// groups); rows past `offs[-1]` are zeros (transformers' fallback writes
/// zeros there, ATen leaves them unspecified). 3-D x 3-D without offsets is
/// a batched `MatMul`. Other layouts (grouping along K, 3-D x 2-D), a bias
/// and another output dtype are refused.
fn grouped_mm<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let w = c.args.tensor("mat2")?;
    if c.args.opt_tensor("bias")?.is_some() {
        return Err("grouped mm with a bias is not supported".into());
    }
    let el = c.result_element(0)?;
    if builder::element_type(x.r#type()) != Some(el) || builder::element_type(w.r#type()) != Some(el) {
        return Err("grouped mm with an out_dtype other than the inputs' is not supported".into());
    }
    let (rx, rw) = (c.rank(x)?, c.rank(w)?);
    let offs = c.args.opt_tensor("offs")?;
    let offs = match (rx, rw, offs) {
        (3, 3, None) => return Ok(vec![c.b.onnx().mat_mul(x, w).typed(c.result_type(0)?)?]),
        (2, 3, Some(offs)) => offs,
        (_, _, offs) => {
            return Err(format!(
                "grouped mm of a rank-{rx} by a rank-{rw} tensor {} offsets: only 2-D x 3-D with offsets (groups \
                 of rows) and 3-D x 3-D without are supported",
                if offs.is_some() { "with" } else { "without" }
            ))
        }
    };
    let b = &c.b;
    let i64_t = b.i64_type();
    let int = |ty| b.unranked(ty);
    let ends = b.cast(offs, i64_t)?;
    let prev =
        b.onnx().slice(ends, b.const_i64s(&[0])?, b.const_i64s(&[-1])?, Some(b.const_i64s(&[0])?), None).typed(int(i64_t))?;
    let starts = b.onnx().concat(&[b.const_i64s(&[0])?, prev], 0).typed(int(i64_t))?;
    let groups = match builder::dims(w.r#type()).and_then(|d| d[0]) {
        Some(g) => b.const_i64_scalar(g)?,
        None => {
            let g = b.onnx().slice(b.shape(w)?, b.const_i64s(&[0])?, b.const_i64s(&[1])?, None, None).typed(int(i64_t))?;
            c.squeeze(g, &[0])?
        }
    };
    // The empty [0, N] product the loop appends to.
    let none = b.onnx().slice(x, b.const_i64s(&[0])?, b.const_i64s(&[0])?, Some(b.const_i64s(&[0])?), None).typed(int(el))?;
    let w0 = b.onnx().gather(w, b.const_i64_scalar(0)?, Some(0)).typed(int(el))?;
    let init = b.onnx().mat_mul(none, w0).typed(int(el))?;
    let out = build_loop(c, el, groups, &[init], |b, g, carried| {
        let g1 = b.onnx().reshape(g, b.const_i64s(&[1])?, None).typed(b.unranked(i64_t))?;
        let start = b.onnx().gather(starts, g1, Some(0)).typed(b.unranked(i64_t))?;
        let end = b.onnx().gather(ends, g1, Some(0)).typed(b.unranked(i64_t))?;
        let rows = b.onnx().slice(x, start, end, Some(b.const_i64s(&[0])?), None).typed(b.unranked(el))?;
        let wg = b.onnx().gather(w, g, Some(0)).typed(b.unranked(el))?;
        let y = b.onnx().mat_mul(rows, wg).typed(b.unranked(el))?;
        Ok(vec![b.onnx().concat(&[carried[0], y], 0).typed(b.unranked(el))?])
    })?;
    // Zero rows past the last group.
    let first = |v: Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
        b.onnx().slice(b.shape(v)?, b.const_i64s(&[0])?, b.const_i64s(&[1])?, None, None).typed(int(i64_t))
    };
    let missing = b.onnx().sub(first(x)?, first(out[0])?).typed(int(i64_t))?;
    let missing = b.onnx().max(&[missing, b.const_i64s(&[0])?]).typed(int(i64_t))?;
    let pads =
        b.onnx().concat(&[b.const_i64s(&[0, 0])?, missing, b.const_i64s(&[0])?], 0).typed(int(i64_t))?;
    let zero = b.const_scalar(el, 0.0)?;
    let y = b.onnx().pad(out[0], pads, Some(zero), None, Some("constant")).typed(int(el))?;
    Ok(vec![c.b.onnx().identity(y).typed(c.result_type(0)?)?])
}
