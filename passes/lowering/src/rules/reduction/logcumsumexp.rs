use super::logaddexp_common::logaddexp_of;
use super::math_common::along_dim;
use super::scan_common::{inclusive_scan, scan_len};
use crate::Rule;

/// `log(cumsum(exp(x)))` as an inclusive scan of logaddexp in ceil(log2 n)
/// steps (scan_common; a Loop along a dynamic dim) (stable: no overflow, and small early terms are not lost to a
/// global shift; -inf is the identity).
pub const RULES: &[Rule] = &[Rule::custom("aten.logcumsumexp.default", |c| {
    let x = c.tensor_as("self", c.result_element(0)?)?;
    let dim = c.args.int("dim")?;
    let n = scan_len(c, x, dim)?;
    let y = along_dim(c, x, dim, |x, axis| {
        let fill = c.b.const_scalar(super::math_common::elem(x)?, f64::NEG_INFINITY)?;
        let ys = inclusive_scan(c, &[(x, fill)], axis, n, |b, earlier, later| {
            Ok(vec![logaddexp_of(b, earlier[0], later[0], false)?])
        })?;
        Ok(ys[0])
    })?;
    Ok(vec![c.b.onnx().identity(y).typed(c.result_type(0)?)?])
})
.samples(&["self: T[3,6]; dim: 1", "self: T[5,3]; dim: 0", "self: T[]; dim: 0", "self: T[0,3]; dim: 0"])];
