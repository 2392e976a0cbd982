//! Matrix triangles shared by triu / tril and triu_indices / tril_indices. Not a rule file.

use crate::Ctx;
use melior::ir::Value;

/// `Trilu(x, k, upper)`.
pub(super) fn trilu<'c, 'a>(ctx: &Ctx<'c, 'a>, upper: i64) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let k = ctx.b.const_i64_scalar(ctx.args.int("diagonal")?)?;
    Ok(vec![ctx.b.onnx().trilu(x, Some(k), Some(upper)).typed(ctx.result_type(0)?)?])
}

/// The `[2, N]` row and column indices of the lower (`col - row <= offset`)
/// or upper (`col - row >= offset`) triangle of a `row x col` matrix, in
/// row-major order: every argument is a plain int, so a constant.
pub(super) fn indices<'c, 'a>(c: &Ctx<'c, 'a>, lower: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let (rows, cols, offset) = (c.args.int("row")?, c.args.int("col")?, c.args.int("offset")?);
    if rows < 0 || cols < 0 {
        return Err(format!("row and col must be non-negative, got {rows} and {cols}"));
    }
    if rows.saturating_mul(cols) > 1 << 26 {
        return Err(format!("a {rows} x {cols} triangle is too large to write as a constant"));
    }
    let (mut r, mut k) = (Vec::new(), Vec::new());
    for i in 0..rows {
        for j in 0..cols {
            if (lower && j - i <= offset) || (!lower && j - i >= offset) {
                r.push(i);
                k.push(j);
            }
        }
    }
    let n = r.len() as i64;
    r.extend(k);
    let flat = c.b.const_i64s(&r)?;
    let shape = c.b.const_i64s(&[2, n])?;
    let i64_t = c.b.i64_type();
    let table = c.b.onnx().reshape(flat, shape, Some(1)).typed(c.b.unranked(i64_t))?;
    let element = c.result_element(0)?;
    if element == i64_t {
        Ok(vec![c.b.onnx().identity(table).typed(c.result_type(0)?)?])
    } else {
        let code = crate::onnx_ir::data_type_code(element).ok_or("no ONNX data type")?;
        Ok(vec![c.b.onnx().cast(table, None, None, code).typed(c.result_type(0)?)?])
    }
}
