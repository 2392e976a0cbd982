use super::math_common::{along_dim, elem};
use super::scan_common::{inclusive_scan, scan_len};
use crate::{Ctx, Rule};
use melior::ir::Value;

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

/// An inclusive scan by multiplication (scan_common: Hillis-Steele, `x *=
/// shift(x, s)` with ones shifted in, unrolled for a static length, a Loop
/// along a dynamic dim). Exact for integers (wrapping like torch) and
/// NaN/inf/0 safe for floats.
fn cumprod<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let dim = c.args.int("dim")?;
    let n = scan_len(c, x, dim)?;
    let y = along_dim(c, x, dim, |x, axis| {
        let one = c.b.const_scalar(elem(x)?, 1.0)?;
        let ys = inclusive_scan(c, &[(x, one)], axis, n, |b, earlier, later| {
            Ok(vec![b.onnx().mul(later[0], earlier[0]).like(later[0])?])
        })?;
        Ok(ys[0])
    })?;
    Ok(vec![c.b.onnx().identity(y).typed(c.result_type(0)?)?])
}
