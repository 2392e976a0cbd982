use super::math_common::{along_dim, elem};
use crate::lowering::{builder, Attr, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.cumprod.default", cumprod)
    .samples(&[
        "self: T[3,4]; dim: 1",
        "self: T[5,3]; dim: 0",
        "self: T[2,7]; dim: -1",
        "self: T[]; dim: 0",
        "self: T[0,3]; dim: 0",
        "self: T[2,1]; dim: 1",
        "self: bool[3,4]; dim: 1",
        "self: T[3,4]; dim: 1; dtype: dtype(f32)",
    ])
    // Not f16/bf16: torch rounds every partial product to the half type; computed
    // in float32 (onnx-widen-half) the products round once, closer to float32.
    .dtypes(&["f32", "i64", "f64", "i32", "i8", "u8", "bool"])];

/// An inclusive scan by multiplication in ceil(log2(n)) steps (Hillis-Steele):
/// `x *= shift(x, s)` for s = 1, 2, 4, ... where `shift` pads `s` ones in
/// front along `dim`. Exact for integers (wrapping like torch) and NaN/inf/0
/// safe for floats. Needs a static size along `dim`.
fn cumprod<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let rank = c.rank(x)?;
    let dim = c.args.int("dim")?;
    let axis = c.dim(dim, rank)?;
    let n = if rank == 0 {
        1
    } else {
        builder::dims(x.r#type()).and_then(|d| d[axis]).ok_or("cumprod along a dynamic dim is not supported")?
    };
    let y = along_dim(c, x, dim, |x, axis| {
        let b = &c.b;
        let r = rank.max(1);
        let one = b.const_scalar(elem(x)?, 1.0)?;
        let mut y = x;
        let mut s = 1i64;
        while s < n {
            let starts = b.const_i64s(&[0])?;
            let ends = b.const_i64s(&[n - s])?;
            let axes = b.const_i64s(&[axis])?;
            let head = b.op_like("Slice", &[y, starts, ends, axes], &[], y)?;
            let mut pads = vec![0i64; 2 * r];
            pads[axis as usize] = s;
            let pads = b.const_i64s(&pads)?;
            let shifted = b.op_like("Pad", &[head, pads, one], &[("mode", Attr::String("constant".into()))], y)?;
            y = b.op_like("Mul", &[y, shifted], &[], y)?;
            s *= 2;
        }
        Ok(y)
    })?;
    Ok(vec![c.op("Identity", &[y], &[])?])
}
