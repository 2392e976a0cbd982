use crate::{args::IntArg, Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[Rule::custom("aten.affine_grid_generator.default", affine_grid_generator)
    .samples(&[
        "theta: T[2,2,3]; size: [2,3,4,5]; align_corners: false",
        "theta: T[2,2,3]; size: [2,3,4,5]; align_corners: true",
        // A size-1 dim sits at coordinate 0 in both modes.
        "theta: T[1,2,3]; size: [1,1,3,1]; align_corners: true",
        "theta: T[1,2,3]; size: [1,1,1,3]; align_corners: false",
        "theta: T[2,3,4]; size: [2,1,3,4,5]; align_corners: true",
        "theta: T[1,3,4]; size: [1,2,2,3,1]; align_corners: false",
        "theta: T[2,2,3]; size: [2,3,0,5]; align_corners: false",
    ])
    .dtypes(&["f32", "f64"])];

/// F.affine_grid: the base grid of normalized coordinates, `(x, y, 1)` per
/// output pixel (`(x, y, z, 1)` for 5-D sizes), times `theta` transposed,
/// as ATen builds it. A dim of n points holds `(2i - (n - 1)) / d`, with
/// `d = max(n - 1, 1)` under align_corners (corner pixels at -1 and 1) and
/// `d = n` otherwise (pixel centres); one point sits at 0 either way. Sizes
/// may be symbolic; the batch is theta's; computed in float32 for half types (torch's linspace
/// and bmm accumulate in float).
fn affine_grid_generator<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &c.b;
    let size = c.args.sym_ints("size")?;
    let spatial = match size.len() {
        4 => 2,
        5 => 3,
        n => return Err(format!("affine_grid needs a 4-D or 5-D size (N, C, [D,] H, W), got {n} dims")),
    };
    let element = c.opmath_element()?;
    let theta = b.cast_like_type(c.args.tensor("theta")?, element)?;
    if c.rank(theta)? != 3 {
        return Err("affine_grid needs a 3-D theta [N, k, k + 1]".into());
    }
    let align = c.args.bool("align_corners")?;
    let un = b.unranked(element);
    let un_i = b.unranked(b.i64_type());
    // A statically empty grid is built directly: onnxruntime's shape
    // inference broadcasts a 1 against a static 0 to 1 (Expand) and then
    // rejects the Concat of the channels.
    if size[2..].iter().any(|d| matches!(d, IntArg::Static(0))) {
        let batch = b.onnx().shape(theta, Some(1), Some(0)).typed(un_i)?;
        let dims: Vec<Value> = size[2..].iter().map(|d| c.int_tensor(*d)).collect::<Result<_, _>>()?;
        let k = b.const_i64s(&[spatial as i64])?;
        let shape = b.onnx().concat(&[&[batch], &dims[..], &[k]].concat(), 0).typed(un_i)?;
        let zero = b.const_scalar(c.result_element(0)?, 0.0)?;
        return Ok(vec![c.b.onnx().expand(zero, shape).typed(c.result_type(0)?)?]);
    }
    // Spatial sizes as [1] int64 tensors, outermost first (D, H, W).
    let dims: Vec<Value> = size[2..].iter().map(|d| c.int_tensor(*d)).collect::<Result<_, _>>()?;
    let grid_shape = b.onnx().concat(&[&dims[..], &[b.const_i64s(&[1])?]].concat(), 0).typed(un_i)?;
    // One channel per coordinate, x (the last dim) first, then the ones.
    let mut channels = Vec::with_capacity(spatial + 1);
    for (axis, n) in dims.iter().enumerate().rev() {
        let count = c.squeeze(*n, &[0])?;
        let positions =
            b.onnx().range(b.const_i64_scalar(0)?, count, b.const_i64_scalar(1)?, None).typed(un_i)?;
        let two_i = b.onnx().mul(b.cast(positions, element)?, b.const_scalar(element, 2.0)?).typed(un)?;
        let nf = b.cast(*n, element)?;
        let centred = b.onnx().sub(two_i, b.onnx().sub(nf, b.const_scalar(element, 1.0)?).typed(un)?).typed(un)?;
        let divisor = if align {
            b.onnx().max(&[b.onnx().sub(nf, b.const_scalar(element, 1.0)?).typed(un)?, b.const_scalar(element, 1.0)?]).typed(un)?
        } else {
            nf
        };
        let coords = b.onnx().div(centred, divisor).typed(un)?;
        // [n] -> broadcastable along `axis` of the [..spatial, 1] grid.
        let others: Vec<i64> = (0..=spatial as i64).filter(|&a| a != axis as i64).collect();
        let placed = c.unsqueeze(coords, &others)?;
        channels.push(b.onnx().expand(placed, grid_shape).typed(un)?);
    }
    channels.push(b.onnx().expand(b.const_scalar(element, 1.0)?, grid_shape).typed(un)?);
    let base = b.onnx().concat(&channels, -1).typed(un)?;
    // [1, ..spatial, k + 1] @ theta^T as [N, 1.., k + 1, k] -> [N, ..spatial, k]
    // (no flattening, so empty and symbolic sizes need no reshape).
    let base = c.unsqueeze(base, &[0])?;
    let theta_t = b.onnx().transpose(theta, Some(&[0, 2, 1])).typed(un)?;
    let theta_t = if spatial > 1 { c.unsqueeze(theta_t, &(1..spatial as i64).collect::<Vec<_>>())? } else { theta_t };
    let grid = b.onnx().mat_mul(base, theta_t).typed(un)?;
    Ok(vec![c.b.cast_like_type(grid, c.result_element(0)?)?])
}
