use super::adaptive_avg_pool2d::bins;
use super::nn_common::{nan_max_pool, unranked_like, with_batch};
use crate::lowering::{builder, Attr, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.adaptive_max_pool2d.default", |c| adaptive_max_pool(c, 2)).samples(&[
    "self: T[1,2,4,4]; output_size: [1,1]",
    "self: T[2,3,4,6]; output_size: [2,3]",
    "self: T[1,2,5,5]; output_size: [2,2]",
    "self: T[1,2,7,5]; output_size: [3,4]",
    "self: T[3,5,7]; output_size: [2,3]",
    "self: T[1,2,3,3]; output_size: [4,4]",
])];

/// Values and torch's per-plane indices. Output sizes dividing the static
/// input: MaxPool (its indices modulo the plane size); otherwise one
/// ReduceMax / ArgMax per output cell over torch's bins (the first maximum
/// in row-major order, like torch), its window index mapped to the plane.
pub(super) fn adaptive_max_pool<'c, 'a>(c: &Ctx<'c, 'a>, spatial: usize) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let out = c.args.ints("output_size")?;
    if out.len() != spatial || out.iter().any(|&o| o <= 0) {
        return Err(format!("output_size {out:?} for {spatial} spatial dims"));
    }
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    if !builder::is_float(element) {
        return Err("adaptive max pooling of a non-float tensor".into());
    }
    let i64_type = c.b.i64_type();
    with_batch(c, x, spatial + 2, |xb| {
        let dims = builder::dims(xb.r#type()).ok_or("unknown rank")?;
        let inputs: Vec<i64> = dims[2..]
            .iter()
            .map(|d| d.ok_or("adaptive max pooling needs static spatial sizes"))
            .collect::<Result<_, _>>()?;
        if inputs.iter().zip(&out).all(|(i, o)| i % o == 0) {
            let kernel: Vec<i64> = inputs.iter().zip(&out).map(|(i, o)| i / o).collect();
            let attrs = [("kernel_shape", Attr::Ints(kernel.clone())), ("strides", Attr::Ints(kernel))];
            return nan_max_pool(c, xb, spatial, &attrs, true);
        }
        let per_axis: Vec<Vec<(i64, i64)>> = inputs.iter().zip(&out).map(|(&i, &o)| bins(i, o)).collect();
        let cells: i64 = out.iter().product();
        let flat_shape = c.b.const_i64s(&[0, 0, -1])?;
        let axes: Vec<i64> = (2..2 + spatial as i64).collect();
        let (mut values, mut indices) = (Vec::new(), Vec::new());
        for cell in 0..cells {
            // Row-major cell coordinates.
            let mut rest = cell;
            let mut coord = vec![0i64; spatial];
            for a in (0..spatial).rev() {
                coord[a] = rest % out[a];
                rest /= out[a];
            }
            let windows: Vec<(i64, i64)> = (0..spatial).map(|a| per_axis[a][coord[a] as usize]).collect();
            let starts = c.b.const_i64s(&windows.iter().map(|w| w.0).collect::<Vec<_>>())?;
            let ends = c.b.const_i64s(&windows.iter().map(|w| w.1).collect::<Vec<_>>())?;
            let ax = c.b.const_i64s(&axes)?;
            let win = c.b.op_like("Slice", &[xb, starts, ends, ax], &[], xb)?;
            let flat = c.b.op_like("Reshape", &[win, flat_shape], &[], xb)?;
            // torch: a NaN wins (the window's last NaN); ReduceMax / ArgMax skip NaN.
            let bool_t = c.b.unranked(melior::ir::r#type::IntegerType::new(c.b.context, 1).into());
            let nan_f = c.b.cast_like(c.b.op("IsNaN", &[flat], &[], bool_t)?, xb)?;
            let nan_count = c.reduce("ReduceMax", nan_f, Some(&[-1]), true, unranked_like(c, xb)?)?;
            let has_nan = c.b.op("Greater", &[nan_count, c.b.const_like(xb, 0.0)?], &[], bool_t)?;
            let max = c.reduce("ReduceMax", flat, Some(&[-1]), true, unranked_like(c, xb)?)?;
            values.push(c.b.op_like("Where", &[has_nan, c.b.const_like(xb, f64::NAN)?, max], &[], xb)?);
            let arg = c.b.op(
                "ArgMax",
                &[flat],
                &[("axis", Attr::Int(-1)), ("keepdims", Attr::Int(1))],
                c.b.unranked(i64_type),
            )?;
            let last_nan = c.b.op(
                "ArgMax",
                &[nan_f],
                &[("axis", Attr::Int(-1)), ("keepdims", Attr::Int(1)), ("select_last_index", Attr::Int(1))],
                c.b.unranked(i64_type),
            )?;
            let local = c.b.op("Where", &[has_nan, last_nan, arg], &[], c.b.unranked(i64_type))?;
            // Window-local flat index -> plane index.
            let mut global: Option<Value> = None;
            let mut divisor = 1i64;
            let mut stride = 1i64;
            for a in (0..spatial).rev() {
                let size = windows[a].1 - windows[a].0;
                let mut part = local;
                if divisor > 1 {
                    part = c.b.op("Div", &[part, c.b.const_i64_scalar(divisor)?], &[], c.b.unranked(i64_type))?;
                }
                if a > 0 {
                    part = c.b.op("Mod", &[part, c.b.const_i64_scalar(size)?], &[], c.b.unranked(i64_type))?;
                }
                let offset = c.b.const_i64_scalar(windows[a].0)?;
                part = c.b.op("Add", &[part, offset], &[], c.b.unranked(i64_type))?;
                if stride > 1 {
                    part = c.b.op("Mul", &[part, c.b.const_i64_scalar(stride)?], &[], c.b.unranked(i64_type))?;
                }
                global = Some(match global {
                    None => part,
                    Some(g) => c.b.op("Add", &[g, part], &[], c.b.unranked(i64_type))?,
                });
                divisor *= size;
                stride *= inputs[a];
            }
            indices.push(global.unwrap());
        }
        let mut shape = vec![0i64, 0];
        shape.extend(&out);
        let shape = c.b.const_i64s(&shape)?;
        let v = c.b.op_like("Concat", &values, &[("axis", Attr::Int(-1))], xb)?;
        let v = c.b.op_like("Reshape", &[v, shape], &[], xb)?;
        let i = c.b.op("Concat", &indices, &[("axis", Attr::Int(-1))], c.b.unranked(i64_type))?;
        let i = c.b.op("Reshape", &[i, shape], &[], c.b.unranked(i64_type))?;
        Ok(vec![v, i])
    })
}
