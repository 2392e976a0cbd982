use super::as_strided_common::strided_positions;
use super::tensor_common::const_index;
use crate::Rule;

/// `torch.as_strided_scatter(x, src, size, stride, storage_offset)`: a copy
/// of `x` whose elements at the flat positions `as_strided` would read are
/// replaced by `src` (row-major): `ScatterElements` on the flattened input.
/// Overlapping positions (a stride 0, ...) are refused: torch's result then
/// depends on the write order.
pub const RULES: &[Rule] = &[Rule::custom("aten.as_strided_scatter.default", |c| {
    let b = &c.b;
    let x = c.args.tensor("self")?;
    let (shape, positions) = strided_positions(c, x)?;
    let mut sorted = positions.clone();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return Err("as_strided_scatter with overlapping positions (a zero or small stride) is not supported".into());
    }
    let n = positions.len() as i64;
    let idx = const_index(c, &[n as u64], &positions)?;
    let flat = b.onnx().reshape(x, b.const_i64s(&[-1])?, None).like(x)?;
    let src = c.tensor_as("src", c.result_element(0)?)?;
    let _ = shape;
    let updates = b.onnx().reshape(src, b.const_i64s(&[n])?, None).like(x)?;
    let scattered = b.onnx().scatter_elements(flat, idx, updates, Some(0), None).like(x)?;
    Ok(vec![c.b.onnx().reshape(scattered, b.shape(x)?, None).typed(c.result_type(0)?)?])
})
.samples(&[
    "self: T[3,4]; src: T[2,2]; size: [2,2]; stride: [1,2]",
    "self: T[12]; src: T[3,3]; size: [3,3]; stride: [3,1]; storage_offset: 2",
    "self: T[3,4]; src: T[]; size: []; stride: []; storage_offset: 5",
    "self: T[3,4]; src: T[0,2]; size: [0,2]; stride: [1,1]",
    "self: T[]; src: T[1]; size: [1]; stride: [1]",
])
.dtypes(&["f32", "i64", "bool", "i32", "f64", "f16"])];
