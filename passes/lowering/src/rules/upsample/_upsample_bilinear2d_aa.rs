use crate::{builder, Ctx, Rule};
use melior::ir::{r#type::RankedTensorType, Attribute, Type, Value, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::custom("aten._upsample_bilinear2d_aa.vec", |c| upsample_aa(c, false)).samples(&[
        "input: T[1,2,8,9]; output_size: [3,4]; align_corners: false; scale_factors: none",
        "input: T[1,2,5,6]; output_size: [7,10]; align_corners: false; scale_factors: none",
        "input: T[1,2,8,9]; output_size: none; align_corners: false; scale_factors: [0.4,0.5]",
        "input: T[2,1,8,9]; output_size: [3,4]; align_corners: true; scale_factors: none",
    ])
    .refuses(&[("input: u8[2,3,10,20]; output_size: [5,5]; align_corners: false; scale_factors: none", "fixed-point")]),
    Rule::custom("aten._upsample_bilinear2d_aa.default", |c| upsample_aa(c, false))
        .samples(&["self: T[1,2,8,9]; output_size: [3,4]; align_corners: false"]),
];

/// Antialiased resampling (torchvision-style `antialias=True`): separable,
/// so each spatial axis is a MatMul with torch's [in, out] weight matrix
/// (triangle filter for bilinear, a = -0.5 cubic for bicubic, stretched by
/// the scale when downsampling, normalized per output).
pub(super) fn upsample_aa<'c, 'a>(c: &Ctx<'c, 'a>, cubic: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let is_vec = c.args.schema.arg("scale_factors").is_some();
    let x = c.args.tensor(if is_vec { "input" } else { "self" })?;
    let align = c.args.bool("align_corners")?;
    let in_dims = builder::dims(x.r#type()).ok_or("unknown rank")?;
    let out_dims = builder::dims(c.result_type(0)?).ok_or("unknown rank")?;
    if in_dims.len() != 4 {
        return Err("antialiased upsampling needs a 4-D input".into());
    }
    let element = builder::element_type(x.r#type()).ok_or("not a tensor")?;
    if !builder::is_float(element) {
        // (A float attribute of an integer type is not a valid MLIR attribute.)
        return Err(format!(
            "antialiased upsampling of a {element} tensor: torch's integer kernels use fixed-point weights and \
             round between passes, which a float MatMul does not reproduce; interpolate a float copy (x.float())"
        ));
    }
    let factors: Vec<Option<f64>> = if is_vec {
        if c.args.is_none("scale_factors")? {
            vec![None, None]
        } else {
            c.args.floats("scale_factors")?.into_iter().map(Some).collect()
        }
    } else {
        vec![c.args.opt_float("scales_h")?, c.args.opt_float("scales_w")?]
    };
    let mut y = x;
    for axis in [2usize, 3] {
        let input = in_dims[axis].ok_or("antialiased upsampling needs static sizes")?;
        let output = out_dims[axis].ok_or("antialiased upsampling needs static sizes")?;
        let m = weights(input, output, align, factors[axis - 2].filter(|&f| f > 0.0), cubic);
        let ty: Type = RankedTensorType::new(&[input as u64, output as u64], element, None).into();
        let attrs: Vec<Attribute> = m.iter().map(|&v| crate::builder::float_attr(c.b.context, element, v).into()).collect();
        let matrix = c.b.constant(ty, &attrs)?;
        y = if axis == 3 {
            c.b.onnx().mat_mul(y, matrix).like(x)?
        } else {
            let perm = Some(&[0, 1, 3, 2][..]);
            let t = c.b.onnx().transpose(y, perm).like(x)?;
            let t = c.b.onnx().mat_mul(t, matrix).like(x)?;
            c.b.onnx().transpose(t, perm).like(x)?
        };
    }
    Ok(vec![c.b.onnx().identity(y).typed(c.result_type(0)?)?])
}

/// torch's antialias weights as an [in, out] matrix (row-major).
fn weights(input: i64, output: i64, align: bool, factor: Option<f64>, cubic: bool) -> Vec<f64> {
    // area_pixel_compute_scale in float.
    let scale: f32 = if align {
        if output > 1 { (input - 1) as f32 / (output - 1) as f32 } else { 0.0 }
    } else {
        match factor {
            Some(f) => (1.0 / f) as f32,
            None => input as f32 / output as f32,
        }
    };
    let scale = scale as f64;
    let interp_size = if cubic { 4.0 } else { 2.0 };
    let support = if scale >= 1.0 { interp_size * 0.5 * scale } else { interp_size * 0.5 };
    let invscale = if scale >= 1.0 { 1.0 / scale } else { 1.0 };
    let filter = |x: f64| -> f64 {
        let x = x.abs();
        if cubic {
            let a = -0.5;
            if x < 1.0 {
                ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
            } else if x < 2.0 {
                (((x - 5.0) * x + 8.0) * x - 4.0) * a
            } else {
                0.0
            }
        } else if x < 1.0 {
            1.0 - x
        } else {
            0.0
        }
    };
    let mut m = vec![0.0; (input * output) as usize];
    for i in 0..output {
        let center = scale * (i as f64 + 0.5);
        let xmin = ((center - support + 0.5) as i64).max(0);
        let xmax = ((center + support + 0.5) as i64).min(input);
        let ws: Vec<f64> = (xmin..xmax).map(|j| filter((j as f64 - center + 0.5) * invscale)).collect();
        let total: f64 = ws.iter().sum();
        for (k, j) in (xmin..xmax).enumerate() {
            m[(j * output + i) as usize] = if total != 0.0 { ws[k] / total } else { 0.0 };
        }
    }
    m
}
