//! Adaptive average pooling shared by the 1-d, 2-d and 3-d rules and their backward. Not a rule file.

use super::nn_common::{with_batch, PoolAttrs};
use crate::{builder, Ctx};
use melior::ir::{r#type::RankedTensorType, Attribute, Type, Value, ValueLike};

/// torch's adaptive bins: `[floor(i * in / out), ceil((i + 1) * in / out))`.
pub(super) fn bins(input: i64, output: i64) -> Vec<(i64, i64)> {
    (0..output).map(|i| ((i * input) / output, ((i + 1) * input + output - 1) / output)).collect()
}

/// Output 1 everywhere: GlobalAveragePool; static sizes that are multiples of
/// the output: AveragePool; otherwise, axis by axis, a MatMul with the
/// [in, out] averaging matrix of torch's bins (the mean over a box is the
/// mean over each axis in turn): a constant for a static size, computed in
/// the graph from the run-time size for a dynamic one (VGG's and AlexNet's
/// pooling to 7x7 / 6x6 exported with dynamic image sizes).
pub(super) fn adaptive_avg_pool<'c, 'a>(c: &Ctx<'c, 'a>, spatial: usize) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let out = c.args.ints("output_size")?;
    if out.len() != spatial {
        return Err(format!("output_size has {} entries, expected {spatial}", out.len()));
    }
    with_batch(c, x, spatial + 2, |xb| {
        if out.iter().all(|&o| o == 1) {
            return Ok(vec![c.b.onnx().global_average_pool(xb).like(xb)?]);
        }
        let dims = builder::dims(xb.r#type()).ok_or("unknown rank")?;
        let inputs: Vec<Option<i64>> = dims[2..].to_vec();
        if inputs.iter().zip(&out).all(|(i, o)| *o > 0 && i.is_some_and(|i| i % o == 0)) {
            let kernel: Vec<i64> = inputs.iter().zip(&out).map(|(i, o)| i.unwrap_or(0) / o).collect();
            return Ok(vec![PoolAttrs::tiling(kernel).average_pool(&c.b, xb, None).like(xb)?]);
        }
        let element = builder::element_type(xb.r#type()).ok_or("not a tensor")?;
        if !builder::is_float(element) {
            return Err("adaptive average pooling of a non-float tensor".into());
        }
        let rank = spatial + 2;
        let mut y = xb;
        for (i, (&input, &output)) in inputs.iter().zip(&out).enumerate() {
            let axis = 2 + i;
            let matrix = match input {
                Some(input) if input == output => continue,
                Some(input) => {
                    // [in, out] matrix: column j averages torch's bin j.
                    let mut m = vec![0.0f64; (input * output) as usize];
                    for (j, (s, e)) in bins(input, output).into_iter().enumerate() {
                        for k in s..e {
                            m[(k * output) as usize + j] = 1.0 / (e - s) as f64;
                        }
                    }
                    let ty: Type = RankedTensorType::new(&[input as u64, output as u64], element, None).into();
                    let attrs: Vec<Attribute> =
                        m.iter().map(|&v| crate::builder::float_attr(c.b.context, element, v).into()).collect();
                    c.b.constant(ty, &attrs)?
                }
                None => {
                    let i64_t = c.b.i64_type();
                    let shape = c.b.shape(xb)?;
                    let bounds = [c.b.const_i64s(&[axis as i64])?, c.b.const_i64s(&[axis as i64 + 1])?];
                    let n = c.b.onnx().slice(shape, bounds[0], bounds[1], None, None).typed(c.b.unranked(i64_t))?;
                    dynamic_bins_matrix(c, n, output, element)?
                }
            };
            if axis == rank - 1 {
                y = c.b.onnx().mat_mul(y, matrix).like(xb)?;
            } else {
                let mut perm: Vec<i64> = (0..rank as i64).collect();
                perm.swap(axis, rank - 1);
                let t = c.b.onnx().transpose(y, Some(&perm.clone())).like(xb)?;
                let t = c.b.onnx().mat_mul(t, matrix).like(xb)?;
                y = c.b.onnx().transpose(t, Some(&perm)).like(xb)?;
            }
        }
        Ok(vec![c.b.onnx().identity(y).like(xb)?])
    })
}

/// The [in, out] averaging matrix of `bins` for an input size `n` known only
/// at run time (a 1-element int64 tensor): with j = 0..out, start_j =
/// floor(j * n / out), end_j = ceil((j + 1) * n / out) (integer divisions of
/// non-negative values), entry [k, j] = (start_j <= k < end_j) / (end_j - start_j).
pub(super) fn dynamic_bins_matrix<'c, 'a>(
    c: &Ctx<'c, 'a>,
    n: Value<'c, 'a>,
    output: i64,
    element: Type<'c>,
) -> Result<Value<'c, 'a>, String> {
    let b = &c.b;
    let i64_t = b.i64_type();
    let bool_t = super::math_common::bool_type(c);
    let j = b.const_i64s(&(0..output).collect::<Vec<_>>())?;
    let j1 = b.const_i64s(&(1..=output).collect::<Vec<_>>())?;
    let out = b.const_i64s(&[output])?;
    let start = b.onnx().div(b.onnx().mul(j, n).typed(b.unranked(i64_t))?, out).typed(b.unranked(i64_t))?;
    let end = b.onnx().div(b.onnx().add(b.onnx().mul(j1, n).typed(b.unranked(i64_t))?, b.const_i64s(&[output - 1])?).typed(b.unranked(i64_t))?, out).typed(b.unranked(i64_t))?;
    let limit = c.squeeze(n, &[0])?;
    let k = b.onnx().range(b.const_i64_scalar(0)?, limit, b.const_i64_scalar(1)?, None).typed(b.unranked(i64_t))?;
    let k = c.unsqueeze(k, &[1])?;
    let ge = b.onnx().greater_or_equal(k, start).typed(b.unranked(bool_t))?;
    let lt = b.onnx().less(k, end).typed(b.unranked(bool_t))?;
    let inside = b.onnx().and(ge, lt).typed(b.unranked(bool_t))?;
    let count = b.cast(b.onnx().sub(end, start).typed(b.unranked(i64_t))?, element)?;
    b.onnx().div(b.cast(inside, element)?, count).typed(b.unranked(element))
}
