//! Pooling gradients shared by the 2-d and 3-d backward rules (avg, adaptive avg, max with indices). Not a rule file.

use super::adaptive_pool_common::bins;
use super::nn_common::expand;
use crate::{builder, Ctx};
use melior::ir::{r#type::RankedTensorType, Attribute, Type, Value, ValueLike};

/// One pooling window of an output position: the flat input indices it
/// covers and torch's divisor.
pub(super) struct Win {
    pub taps: Vec<i64>,
    pub divisor: f64,
}

/// The gradient of averaging windows: `grad_output / divisor` of each
/// window added into every input element it covers (Gather of the window's
/// output value per tap, ScatterElements add into zero planes).
pub(super) fn window_backward<'c, 'a>(
    c: &Ctx<'c, 'a>,
    spatial: usize,
    windows: &[Win],
) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &c.b;
    let g = c.args.tensor("grad_output")?;
    let x = c.args.tensor("self")?;
    let rank = c.rank(x)?;
    let lead = rank - spatial;
    let element = builder::element_type(g.r#type()).ok_or("not a tensor")?;
    let i64t = b.unranked(b.i64_type());
    let (mut taps_in, mut taps_out) = (Vec::new(), Vec::new());
    for (o, w) in windows.iter().enumerate() {
        for &t in &w.taps {
            taps_in.push(t);
            taps_out.push(o as i64);
        }
    }
    let divs: Vec<Attribute> =
        windows.iter().map(|w| crate::builder::float_attr(b.context, element, w.divisor).into()).collect();
    let dty: Type = RankedTensorType::new(&[windows.len() as u64], element, None).into();
    let divs = b.constant(dty, &divs)?;
    let mut flat = vec![0i64; lead];
    flat.push(-1);
    let gf = b.onnx().reshape(g, b.const_i64s(&flat)?, None).like(g)?;
    let gf = b.onnx().div(gf, divs).like(g)?;
    let upd = b.onnx().gather(gf, b.const_i64s(&taps_out)?, Some(lead as i64)).like(g)?;
    let idx = b.onnx().expand(b.const_i64s(&taps_in)?, b.shape(upd)?).typed(i64t)?;
    let shape = b.shape(x)?;
    let lead_shape =
        b.onnx().slice(shape, b.const_i64s(&[0])?, b.const_i64s(&[lead as i64])?, None, None).typed(i64t)?;
    let dims = builder::dims(x.r#type()).ok_or("unknown rank")?;
    let plane: i64 =
        dims[lead..].iter().map(|d| d.ok_or("pool backward needs static spatial sizes")).product::<Result<i64, _>>()?;
    let zs = b.onnx().concat(&[lead_shape, b.const_i64s(&[plane])?], 0).typed(i64t)?;
    let zeros = b.onnx().expand(b.const_scalar(element, 0.0)?, zs).like(g)?;
    let summed = b.onnx().scatter_elements(zeros, idx, upd, Some(lead as i64), Some("add")).like(g)?;
    Ok(vec![c.b.onnx().reshape(summed, shape, None).typed(c.result_type(0)?)?])
}

/// Static spatial sizes of `self` and `grad_output`.
pub(super) fn sizes(c: &Ctx<'_, '_>, spatial: usize) -> Result<(Vec<i64>, Vec<i64>), String> {
    let get = |name: &str| -> Result<Vec<i64>, String> {
        let d = builder::dims(c.args.tensor(name)?.r#type()).ok_or("unknown rank")?;
        if d.len() < spatial + 1 {
            return Err(format!("{name} has too few dims"));
        }
        d[d.len() - spatial..].iter().map(|v| v.ok_or("pool backward needs static spatial sizes".to_string())).collect()
    };
    Ok((get("self")?, get("grad_output")?))
}

/// Row-major output positions over `out` dims.
pub(super) fn positions(out: &[i64]) -> Vec<Vec<i64>> {
    let total: i64 = out.iter().product();
    (0..total)
        .map(|mut p| {
            let mut coord = vec![0; out.len()];
            for a in (0..out.len()).rev() {
                coord[a] = p % out[a];
                p /= out[a];
            }
            coord
        })
        .collect()
}

/// Flat indices of the box `[starts, ends)` in a plane of dims `input`.
pub(super) fn box_taps(input: &[i64], starts: &[i64], ends: &[i64]) -> Vec<i64> {
    let extents: Vec<i64> = starts.iter().zip(ends).map(|(s, e)| (e - s).max(0)).collect();
    positions(&extents)
        .into_iter()
        .map(|off| off.iter().enumerate().fold(0, |acc, (a, &o)| acc * input[a] + starts[a] + o))
        .collect()
}

/// `avg_poolNd_backward`: torch's windows and divisors (ceil_mode windows
/// clipped to input + padding; count_include_pad; divisor_override).
pub(super) fn avg_pool_backward<'c, 'a>(c: &Ctx<'c, 'a>, spatial: usize) -> Result<Vec<Value<'c, 'a>>, String> {
    let (input, out) = sizes(c, spatial)?;
    let kernel = expand(c.args.ints("kernel_size")?, spatial);
    let stride = expand(c.args.ints("stride")?, spatial);
    let stride = if stride.is_empty() { kernel.clone() } else { stride };
    let padding = expand(c.args.ints("padding")?, spatial);
    if [&kernel, &stride, &padding].iter().any(|v| v.len() != spatial) || stride.iter().any(|&s| s <= 0) {
        return Err("avg pool backward: kernel / stride / padding do not match the spatial dims".into());
    }
    let include_pad = c.args.bool("count_include_pad")?;
    let override_ = c.args.opt_int("divisor_override")?;
    let windows: Vec<Win> = positions(&out)
        .into_iter()
        .map(|pos| {
            let (mut starts, mut ends, mut pool) = (vec![], vec![], 1i64);
            for a in 0..spatial {
                let s = pos[a] * stride[a] - padding[a];
                let e = (s + kernel[a]).min(input[a] + padding[a]);
                pool *= e - s;
                starts.push(s.max(0));
                ends.push(e.min(input[a]));
            }
            let taps = box_taps(&input, &starts, &ends);
            let divisor = match override_ {
                Some(d) => d,
                None if include_pad => pool,
                None => taps.len() as i64,
            };
            Win { taps, divisor: if divisor == 0 { 1.0 } else { divisor as f64 } }
        })
        .collect();
    window_backward(c, spatial, &windows)
}

/// The adaptive bins are the windows; each divides by its size.
pub(super) fn adaptive_backward<'c, 'a>(c: &Ctx<'c, 'a>, spatial: usize) -> Result<Vec<Value<'c, 'a>>, String> {
    let (input, out) = sizes(c, spatial)?;
    let per_axis: Vec<Vec<(i64, i64)>> = (0..spatial).map(|a| bins(input[a], out[a])).collect();
    let windows: Vec<Win> = positions(&out)
        .into_iter()
        .map(|pos| {
            let starts: Vec<i64> = (0..spatial).map(|a| per_axis[a][pos[a] as usize].0).collect();
            let ends: Vec<i64> = (0..spatial).map(|a| per_axis[a][pos[a] as usize].1).collect();
            let taps = box_taps(&input, &starts, &ends);
            Win { divisor: taps.len().max(1) as f64, taps }
        })
        .collect();
    window_backward(c, spatial, &windows)
}

/// `grad_output` added into zero planes at torch's per-plane flat indices
/// (ScatterElements with reduction add: a position chosen by several
/// windows gets the sum, like torch).
pub(super) fn max_pool_backward<'c, 'a>(c: &Ctx<'c, 'a>, spatial: usize) -> Result<Vec<Value<'c, 'a>>, String> {
    let g = c.args.tensor("grad_output")?;
    let x = c.args.tensor("self")?;
    let indices = c.args.tensor("indices")?;
    let dims = builder::dims(x.r#type()).ok_or("unknown rank")?;
    let rank = dims.len();
    if rank != spatial + 1 && rank != spatial + 2 {
        return Err(format!("max pool backward of a rank-{rank} input"));
    }
    let lead = rank - spatial;
    let i64t = c.b.unranked(c.b.i64_type());
    let mut flat = vec![0i64; lead];
    flat.push(-1);
    let flat = c.b.const_i64s(&flat)?;
    let gf = c.b.onnx().reshape(g, flat, None).like(g)?;
    let idx = c.b.onnx().reshape(indices, flat, None).typed(i64t)?;
    // Zeros shaped like the flattened input (built from its shape, not 0 * x: NaN-safe).
    let shape = c.b.shape(x)?;
    let lead_shape =
        c.b.onnx().slice(shape, c.b.const_i64s(&[0])?, c.b.const_i64s(&[lead as i64])?, None, None).typed(i64t)?;
    let plane = c.reduce(
        crate::Reduction::Prod,
        c.b.onnx()
            .slice(shape, c.b.const_i64s(&[lead as i64])?, c.b.const_i64s(&[i64::MAX])?, None, None)
            .typed(i64t)?,
        None,
        true,
        i64t,
    )?;
    let zs = c.b.onnx().concat(&[lead_shape, plane], 0).typed(i64t)?;
    let zeros = c.b.onnx().expand(c.b.const_like(g, 0.0)?, zs).like(g)?;
    let summed = c.b.onnx().scatter_elements(zeros, idx, gf, Some(lead as i64), Some("add")).like(g)?;
    Ok(vec![c.b.onnx().reshape(summed, shape, None).typed(c.result_type(0)?)?])
}
