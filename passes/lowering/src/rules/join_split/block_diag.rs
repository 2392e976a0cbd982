use super::common::dim_size;
use super::tensor_common::{concat, full, static_dims};
use crate::{builder, Ctx, Rule};
use melior::ir::{Type, Value, ValueLike};

/// `torch.block_diag`: each input (0-d as `[1,1]`, 1-D `[n]` as `[1,n]`,
/// 2-D as is) placed on the diagonal of a zero matrix: each row block is
/// `[zeros, t, zeros]` concatenated on dim 1, the blocks on dim 0. Dynamic
/// sizes are read from the shapes (`dynamic_block_diag`).
pub const RULES: &[Rule] = &[Rule::custom("aten.block_diag.default", |c| {
    let b = &c.b;
    let element = c.result_element(0)?;
    let tensors = c.args.tensors("tensors")?;
    let all_static = tensors.iter().all(|t| builder::dims(t.r#type()).is_some_and(|d| d.iter().all(Option::is_some)));
    if !all_static {
        return dynamic_block_diag(c, &tensors, element);
    }
    let mut blocks = Vec::new();
    for t in &tensors {
        let dims = static_dims(c, *t, "block_diag")?;
        let (rows, cols) = match dims.as_slice() {
            [] => (1, 1),
            [n] => (1, *n),
            [r, n] => (*r, *n),
            _ => return Err(format!("block_diag expects tensors of rank <= 2, got rank {}", dims.len())),
        };
        let m = b.onnx().reshape(*t, b.const_i64s(&[rows, cols])?, None).like(*t)?;
        blocks.push((b.cast_like_type(m, element)?, rows, cols));
    }
    let total: i64 = blocks.iter().map(|(_, _, c)| c).sum();
    let mut rows_out = Vec::new();
    let mut before = 0;
    for (m, rows, cols) in blocks {
        let after = total - before - cols;
        let mut parts = Vec::new();
        if before > 0 {
            parts.push(full(c, b.const_i64s(&[rows, before])?, element, 0.0)?);
        }
        parts.push(m);
        if after > 0 {
            parts.push(full(c, b.const_i64s(&[rows, after])?, element, 0.0)?);
        }
        let row = if parts.len() == 1 { parts[0] } else { b.onnx().concat(&parts, 1).like(m)? };
        rows_out.push(row);
        before += cols;
    }
    if rows_out.is_empty() {
        let zeros = full(c, b.const_i64s(&[1, 0])?, element, 0.0)?;
        return Ok(vec![c.b.onnx().identity(zeros).typed(c.result_type(0)?)?]);
    }
    Ok(vec![c.b.onnx().concat(&rows_out, 0).typed(c.result_type(0)?)?])
})
.samples(&[
    "tensors: (T[2,3], T[1,2])",
    "tensors: (T[], T[3], T[2,2])",
    "tensors: (T[2,2])",
    "tensors: (T[0,3], T[2,0], T[2])",
    "tensors: (T[2], i64[1,2])",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];

/// block_diag with a dynamic size: every block's rows and columns and the
/// columns before and after it computed from the shapes (zero blocks of
/// width 0 are empty and concatenate to nothing).
fn dynamic_block_diag<'c, 'a>(
    c: &Ctx<'c, 'a>,
    tensors: &[Value<'c, 'a>],
    element: Type<'c>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &c.b;
    let ints = b.unranked(b.i64_type());
    let mut blocks = Vec::new();
    for t in tensors {
        let rank = c.rank(*t)?;
        let m = match rank {
            0 => b.onnx().reshape(*t, b.const_i64s(&[1, 1])?, None).like(*t)?,
            1 => c.unsqueeze(*t, &[0])?,
            2 => *t,
            r => return Err(format!("block_diag expects tensors of rank <= 2, got rank {r}")),
        };
        blocks.push((b.cast_like_type(m, element)?, dim_size(c, m, 0)?, dim_size(c, m, 1)?));
    }
    let mut total = b.const_i64s(&[0])?;
    for (_, _, cols) in &blocks {
        total = b.onnx().add(total, *cols).typed(ints)?;
    }
    let mut before = b.const_i64s(&[0])?;
    let mut rows_out = Vec::new();
    for (m, rows, cols) in blocks {
        let after = b.onnx().sub(b.onnx().sub(total, before).typed(ints)?, cols).typed(ints)?;
        let left = full(c, concat(c, &[rows, before])?, element, 0.0)?;
        let right = full(c, concat(c, &[rows, after])?, element, 0.0)?;
        rows_out.push(b.onnx().concat(&[left, m, right], 1).like(m)?);
        before = b.onnx().add(before, cols).typed(ints)?;
    }
    Ok(vec![c.b.onnx().concat(&rows_out, 0).typed(c.result_type(0)?)?])
}
