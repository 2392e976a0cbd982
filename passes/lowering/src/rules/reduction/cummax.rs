use super::math_common::{along_dim, elem, is_float_value};
use super::scan_common::{inclusive_scan, scan_len};
use crate::{Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.cummax.default", |c| cumext(c, true))
    .samples(&[
        "self: T[3,6]; dim: 1",
        "self: T[5,3]; dim: 0",
        "self: T[2,7]{-2..2}; dim: -1",
        "self: T[]; dim: 0",
        "self: T[0,3]; dim: 0",
    ])
    .dtypes(&["f32", "i64", "i32", "i8", "bool"])];

/// cummax / cummin: the running extreme and the index of the last element
/// that set it (torch: `x >= best` replaces, so ties move the index; a NaN
/// replaces and sticks, its index the last NaN seen). An inclusive scan in
/// ceil(log2 n) steps (scan_common) combining (earlier, later) pairs: take later where it is
/// NaN, or where earlier is not NaN and later >= earlier (<= for cummin).
pub(super) fn cumext<'c, 'a>(c: &Ctx<'c, 'a>, max: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let x_in = c.args.tensor("self")?;
    let dim = c.args.int("dim")?;
    let n = scan_len(c, x_in, dim)?;
    let i64_type = c.b.i64_type();
    let float = is_float_value(x_in);
    // Bools (no ONNX ordering) and narrower ints (whose fill would not be
    // the type's extreme) are scanned as int64 and cast back.
    let widened = !float && elem(x_in)? != i64_type;
    let x = if widened { c.b.cast(x_in, i64_type)? } else { x_in };
    let element = elem(x)?;
    let mut indices_out = None;
    let values = along_dim(c, x, dim, |x, axis| {
        let b = &c.b;
        // Positions along the axis, broadcast to x's shape.
        let shape = b.shape(x)?;
        let one = b.const_i64_scalar(1)?;
        let ones = b.onnx().expand(one, shape).typed(b.unranked(i64_type))?;
        let axis_t = b.const_i64_scalar(axis)?;
        let pos = b.onnx().cum_sum(ones, axis_t, None, None).like(ones)?;
        let identity = if float {
            if max {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        } else if max {
            i64::MIN as f64
        } else {
            i64::MAX as f64
        };
        let fill = if float || element != i64_type {
            b.const_scalar(element, identity)?
        } else {
            b.const_i64_scalar(if max { i64::MIN } else { i64::MAX })?
        };
        let zero_i = b.const_i64_scalar(0)?;
        let idx = b.onnx().sub(pos, one).like(ones)?;
        let scanned = inclusive_scan(c, &[(x, fill), (idx, zero_i)], axis, n, |b, earlier, later| {
            let (a, ai, y, yi) = (earlier[0], earlier[1], later[0], later[1]);
            let bool_t = b.unranked(melior::ir::r#type::IntegerType::new(b.context, 1).into());
            let cmp = if max { b.onnx().greater_or_equal(y, a) } else { b.onnx().less_or_equal(y, a) };
            let cmp = cmp.typed(bool_t)?;
            let take = if float {
                let a_ok = b.onnx().not(b.onnx().is_na_n(a).typed(bool_t)?).typed(bool_t)?;
                let ok = b.onnx().and(a_ok, cmp).typed(bool_t)?;
                b.onnx().or(b.onnx().is_na_n(y).typed(bool_t)?, ok).typed(bool_t)?
            } else {
                cmp
            };
            Ok(vec![b.onnx().where_(take, y, a).like(y)?, b.onnx().where_(take, yi, ai).like(yi)?])
        })?;
        let (y, idx) = (scanned[0], scanned[1]);
        indices_out = Some(idx);
        Ok(y)
    })?;
    let mut idx = indices_out.ok_or("no indices")?;
    if c.rank(x_in)? == 0 {
        idx = c.squeeze(idx, &[0])?;
    }
    let values = if widened {
        let to = crate::onnx_ir::data_type_code(c.result_element(0)?).ok_or("no ONNX data type for the result")?;
        c.b.onnx().cast(values, None, None, to).typed(c.result_type(0)?)?
    } else {
        c.b.onnx().identity(values).typed(c.result_type(0)?)?
    };
    Ok(vec![
        values,
        c.b.onnx().identity(idx).typed(c.result_type(1)?)?,
    ])
}
