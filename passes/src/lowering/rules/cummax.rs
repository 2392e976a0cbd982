use super::math_common::{along_dim, bool_op, elem, is_float_value, isnan};
use crate::lowering::{builder, Attr, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.cummax.default", |c| cumext(c, true))
    .samples(&[
        "self: T[3,6]; dim: 1",
        "self: T[5,3]; dim: 0",
        "self: T[2,7]{-2..2}; dim: -1",
        "self: T[]; dim: 0",
        "self: T[0,3]; dim: 0",
    ])
    .dtypes(&["f32", "i64", "i32", "i8", "bool"])];

/// `x` shifted by `s` along `axis` (static length `n`): `s` copies of `fill`
/// in front, the last `s` elements dropped.
pub(super) fn shift<'c, 'a>(
    c: &Ctx<'c, 'a>,
    y: Value<'c, 'a>,
    axis: i64,
    rank: usize,
    n: i64,
    s: i64,
    fill: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, String> {
    let b = &c.b;
    let starts = b.const_i64s(&[0])?;
    let ends = b.const_i64s(&[n - s])?;
    let axes = b.const_i64s(&[axis])?;
    let head = b.op_like("Slice", &[y, starts, ends, axes], &[], y)?;
    let mut pads = vec![0i64; 2 * rank];
    pads[axis as usize] = s;
    let pads = b.const_i64s(&pads)?;
    b.op_like("Pad", &[head, pads, fill], &[("mode", Attr::String("constant".into()))], y)
}

/// The static length of `x` along `dim` (1 for a 0-d tensor).
pub(super) fn static_len(c: &Ctx<'_, '_>, x: Value<'_, '_>, dim: i64, what: &str) -> Result<i64, String> {
    let rank = c.rank(x)?;
    if rank == 0 {
        c.dim(dim, 0)?;
        return Ok(1);
    }
    let axis = c.dim(dim, rank)?;
    builder::dims(x.r#type())
        .and_then(|d| d[axis])
        .ok_or_else(|| format!("{what} along a dynamic dim is not supported"))
}

/// cummax / cummin: the running extreme and the index of the last element
/// that set it (torch: `x >= best` replaces, so ties move the index; a NaN
/// replaces and sticks, its index the last NaN seen). An inclusive scan in
/// ceil(log2 n) steps combining (earlier, later) pairs: take later where it is
/// NaN, or where earlier is not NaN and later >= earlier (<= for cummin).
pub(super) fn cumext<'c, 'a>(c: &Ctx<'c, 'a>, max: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let x_in = c.args.tensor("self")?;
    let dim = c.args.int("dim")?;
    let n = static_len(c, x_in, dim, if max { "cummax" } else { "cummin" })?;
    let rank = c.rank(x_in)?.max(1);
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
        let ones = b.op("Expand", &[one, shape], &[], b.unranked(i64_type))?;
        let axis_t = b.const_i64_scalar(axis)?;
        let pos = b.op_like("CumSum", &[ones, axis_t], &[], ones)?;
        let mut idx = b.op_like("Sub", &[pos, one], &[], ones)?;
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
        let mut y = x;
        let mut s = 1i64;
        while s < n {
            let a = shift(c, y, axis, rank, n, s, fill)?;
            let ai = shift(c, idx, axis, rank, n, s, zero_i)?;
            let cmp = bool_op(c, if max { "GreaterOrEqual" } else { "LessOrEqual" }, &[y, a])?;
            let take = if float {
                let a_nan = isnan(c, a)?;
                let a_ok = bool_op(c, "Not", &[a_nan])?;
                let ok = bool_op(c, "And", &[a_ok, cmp])?;
                let y_nan = isnan(c, y)?;
                bool_op(c, "Or", &[y_nan, ok])?
            } else {
                cmp
            };
            let ny = b.op_like("Where", &[take, y, a], &[], y)?;
            idx = b.op_like("Where", &[take, idx, ai], &[], idx)?;
            y = ny;
            s *= 2;
        }
        indices_out = Some(idx);
        Ok(y)
    })?;
    let mut idx = indices_out.ok_or("no indices")?;
    if c.rank(x_in)? == 0 {
        idx = c.squeeze(idx, &[0])?;
    }
    let values = if widened {
        let to = crate::onnx_ir::data_type_code(c.result_element(0)?).ok_or("no ONNX data type for the result")?;
        c.b.op("Cast", &[values], &[("to", Attr::Int(to))], c.result_type(0)?)?
    } else {
        c.b.op("Identity", &[values], &[], c.result_type(0)?)?
    };
    Ok(vec![
        values,
        c.b.op("Identity", &[idx], &[], c.result_type(1)?)?,
    ])
}
