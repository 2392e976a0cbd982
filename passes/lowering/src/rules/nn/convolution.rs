use super::nn_common::{expand, static_ints, with_batch};
use crate::{builder, Attr, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.convolution.default", |c| conv(c, c.args.bool("transposed")?)).samples(&[
        "input: T[1,2,5,5]; weight: T[3,2,3,3]; bias: T[3]; stride: [1,1]; padding: [1,1]; dilation: [1,1]; transposed: false; output_padding: [0,0]; groups: 1",
        "input: T[1,4,6,6]; weight: T[4,2,3,3]; bias: none; stride: [2,2]; padding: [0,0]; dilation: [1,1]; transposed: false; output_padding: [0,0]; groups: 2",
        "input: T[1,2,4,4]; weight: T[2,3,3,3]; bias: T[3]; stride: [2,2]; padding: [1,1]; dilation: [1,1]; transposed: true; output_padding: [1,1]; groups: 1",
        "input: T[2,3,9]; weight: T[4,3,3]; bias: T[4]; stride: [2]; padding: [1]; dilation: [2]; transposed: false; output_padding: [0]; groups: 1",
        "input: T[1,4,3,4,4]; weight: T[4,1,2,3,3]; bias: none; stride: [1,2,1]; padding: [1,0,1]; dilation: [1,1,2]; transposed: true; output_padding: [0,1,0]; groups: 2",
        "input: T[0,2,5,5]; weight: T[3,2,3,3]; bias: T[3]; stride: [1,1]; padding: [1,1]; dilation: [1,1]; transposed: false; output_padding: [0,0]; groups: 1",
    ])
    // Not f16/bf16: torch's CPU transposed convolution accumulates in the half
    // type; computed in float32 here (onnx-widen-half) the result is closer
    // to the float32 computation (measured: 0.06 vs eager's 0.19 on an OpInfo
    // sample) and differs from eager by half-precision ulps. The plain
    // convolutions below keep f16/bf16.
    .dtypes(&["f32", "f64"]),
    Rule::custom("aten.conv2d.default", |c| conv(c, false)).samples(&[
        "input: T[1,2,5,5]; weight: T[3,2,3,3]; bias: T[3]; padding: [1,1]",
        "input: T[2,4,9,9]; weight: T[4,2,3,3]; stride: [2,2]; dilation: [2,2]; groups: 2",
        "input: T[2,5,5]; weight: T[3,2,3,3]; bias: T[3]; padding: [1,2]",
        "input: T[1,3,7,6]; weight: T[3,1,3,2]; stride: [2,1]; padding: [0,1]; groups: 3",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.conv1d.default", |c| conv(c, false)).samples(&[
        "input: T[1,2,8]; weight: T[3,2,3]; bias: T[3]; stride: [2]",
        "input: T[1,2,8]; weight: T[4,2,3]; padding: [1]",
        "input: T[2,8]; weight: T[4,2,3]; bias: T[4]; padding: [2]; dilation: [2]",
        "input: T[2,4,9]; weight: T[6,2,3]; groups: 2",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.conv3d.default", |c| conv(c, false)).samples(&[
        "input: T[1,2,4,4,4]; weight: T[3,2,3,3,3]; padding: [1,1,1]",
        "input: T[2,4,5,4]; weight: T[3,2,3,3,3]; bias: T[3]; stride: [2,1,1]; dilation: [1,1,2]; padding: [1,1,2]",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.conv_transpose2d.input", |c| conv(c, true)).samples(&[
        "input: T[1,2,4,4]; weight: T[2,3,3,3]; bias: T[3]; stride: [2,2]; padding: [1,1]; output_padding: [1,1]",
        "input: T[1,4,3,3]; weight: T[4,1,2,2]; groups: 2",
        "input: T[2,4,4]; weight: T[2,3,3,3]; bias: T[3]; stride: [2,2]; dilation: [2,1]",
        "input: T[2,2,4,4]; weight: T[2,2,4,5]; bias: T[4]; stride: [3,2]; padding: [1,2]; output_padding: [2,3]; groups: 2; dilation: [3,4]",
        "input: T[1,2,3,3]; weight: T[2,3,3,3]; bias: T[3]; stride: [1,1]; padding: [0,1]; output_padding: [1,1]; dilation: [2,3]",
    ]).dtypes(&["f32", "f64"]), // not f16/bf16: see aten.convolution.default
    Rule::custom("aten.conv_transpose1d.default", |c| conv(c, true)).samples(&[
        "input: T[1,2,5]; weight: T[2,3,3]; bias: T[3]; stride: [2]; padding: [1]; output_padding: [1]",
        "input: T[4,5]; weight: T[4,1,3]; groups: 2; dilation: [2]",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.conv_transpose3d.input", |c| conv(c, true)).samples(&[
        "input: T[1,2,3,3,3]; weight: T[2,3,2,2,2]; bias: T[3]; stride: [2,2,2]",
        "input: T[2,3,3,4]; weight: T[2,2,3,3,3]; stride: [2,1,2]; padding: [1,1,1]; output_padding: [1,0,1]",
        "input: T[2,2,4,4,4]; weight: T[2,2,4,5,6]; bias: T[4]; stride: [3,2,1]; padding: [1,2,3]; output_padding: [2,3,5]; groups: 2; dilation: [3,4,6]",
    ]).dtypes(&["f32", "f64"]), // not f16/bf16: see aten.convolution.default
    Rule::custom("aten.conv2d.padding", conv_padding_string).samples(&[
        "input: T[1,2,6,6]; weight: T[3,2,3,3]; bias: T[3]; padding: \"same\"; dilation: [2,2]",
        "input: T[1,2,6,6]; weight: T[3,2,2,2]; padding: \"same\"",
        "input: T[1,2,6,6]; weight: T[3,2,3,3]; padding: \"valid\"",
        "input: T[2,6,6]; weight: T[3,2,2,3]; padding: \"same\"",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.conv1d.padding", conv_padding_string).samples(&[
        "input: T[1,2,7]; weight: T[3,2,4]; bias: T[3]; padding: \"same\"",
        "input: T[2,7]; weight: T[3,2,3]; padding: \"same\"; dilation: [3]",
        "input: T[1,2,7]; weight: T[3,2,3]; padding: \"valid\"; stride: [2]",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.conv3d.padding", conv_padding_string).samples(&[
        "input: T[1,2,4,5,4]; weight: T[3,2,2,3,2]; padding: \"same\"",
        "input: T[2,4,5,4]; weight: T[3,2,3,3,3]; padding: \"valid\"",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
];

/// `Conv` / `ConvTranspose` with torch's symmetric padding; unbatched
/// inputs get a batch dim of 1 (ONNX needs it).
pub(super) fn conv<'c, 'a>(ctx: &Ctx<'c, 'a>, transposed: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("input")?;
    let w = ctx.args.tensor("weight")?;
    float_input(x)?;
    let spatial = ctx.rank(w)?.checked_sub(2).filter(|&s| s > 0).ok_or("convolution weight needs at least 3 dims")?;
    let stride = expand(static_ints(ctx, "stride")?, spatial);
    let padding = expand(
        static_ints(ctx, "padding").map_err(|_| "string padding ('same'/'valid') is not supported here".to_string())?,
        spatial,
    );
    let dilation = expand(static_ints(ctx, "dilation")?, spatial);
    let groups = ctx.args.int("groups")?;
    // torch's own checks: one value, or one per spatial dim.
    for (name, values) in [("stride", &stride), ("padding", &padding), ("dilation", &dilation)] {
        if values.len() != spatial {
            return Err(format!("{name} has {} values for {spatial} spatial dims", values.len()));
        }
    }
    if stride.iter().chain(&dilation).any(|&v| v <= 0) || padding.iter().any(|&p| p < 0) || groups <= 0 {
        return Err("stride, dilation and groups must be positive and padding non-negative".into());
    }
    // ConvTranspose: torch's output_padding (< max(stride, dilation)) extends
    // the output at the end; onnxruntime refuses output_padding >= stride, so
    // it becomes a smaller end pad (`padding - output_padding`: the same
    // cropping of the full output), and where that would be negative, rows
    // past the full output, i.e. zeros plus the bias, added by a Pad.
    let (end_pads, extra) = if transposed {
        let output_padding = expand(static_ints(ctx, "output_padding")?, spatial);
        if output_padding.len() != spatial || output_padding.iter().any(|&o| o < 0) {
            return Err(format!("output_padding {output_padding:?} for {spatial} spatial dims"));
        }
        let ends: Vec<i64> = padding.iter().zip(&output_padding).map(|(p, o)| p - o).collect();
        (ends.iter().map(|&e| e.max(0)).collect(), ends.iter().map(|&e| (-e).max(0)).collect())
    } else {
        (padding.clone(), vec![0; spatial])
    };
    let attrs = vec![
        ("strides", Attr::Ints(stride)),
        ("pads", Attr::Ints(padding.iter().chain(end_pads.iter()).copied().collect())),
        ("dilations", Attr::Ints(dilation)),
        ("group", Attr::Int(groups)),
    ];
    let bias = ctx.args.opt_tensor("bias")?;
    let padded = extra.iter().any(|&e| e > 0);
    with_batch(ctx, x, spatial + 2, |xb| {
        let mut inputs = vec![xb, w];
        if !padded {
            inputs.extend(bias);
        }
        let y = ctx.b.op_like(if transposed { "ConvTranspose" } else { "Conv" }, &inputs, &attrs, xb)?;
        if !padded {
            return Ok(vec![y]);
        }
        let mut pads = vec![0i64; spatial + 2];
        pads.extend([0, 0]);
        pads.extend(&extra);
        let pads = ctx.b.const_i64s(&pads)?;
        let y = ctx.b.onnx().pad(y, pads, None, None, None).like(xb)?;
        match bias {
            None => Ok(vec![y]),
            Some(bias) => {
                let mut shape = vec![-1i64];
                shape.extend(vec![1; spatial]);
                let shape = ctx.b.const_i64s(&shape)?;
                let bias = ctx.b.onnx().reshape(bias, shape, None).like(bias)?;
                Ok(vec![ctx.b.onnx().add(y, bias).like(xb)?])
            }
        }
    })
}

/// `convNd(padding="valid" | "same")`: explicit pads; for "same" the total
/// `dilation * (kernel - 1)` is split with the extra pad at the end, like torch.
fn conv_padding_string<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("input")?;
    float_input(x)?;
    let w = ctx.args.tensor("weight")?;
    let kernel = builder::dims(w.r#type()).ok_or("unknown weight shape")?;
    let spatial = kernel.len().checked_sub(2).filter(|&s| s > 0).ok_or("convolution weight needs at least 3 dims")?;
    let stride = expand(static_ints(ctx, "stride")?, spatial);
    let dilation = expand(static_ints(ctx, "dilation")?, spatial);
    let (begins, ends): (Vec<i64>, Vec<i64>) = match ctx.args.string("padding")?.as_str() {
        "valid" => (vec![0; spatial], vec![0; spatial]),
        "same" => {
            if stride.iter().any(|&s| s != 1) {
                return Err("padding='same' needs stride 1".into());
            }
            (0..spatial)
                .map(|i| {
                    let k = kernel[i + 2].ok_or("dynamic kernel size")?;
                    let total = dilation[i] * (k - 1);
                    Ok((total / 2, total - total / 2))
                })
                .collect::<Result<Vec<_>, String>>()?
                .into_iter()
                .unzip()
        }
        other => return Err(format!("padding '{other}'")),
    };
    let pads = [begins, ends].concat();
    let group = ctx.args.int("groups")?;
    let bias = ctx.args.opt_tensor("bias")?;
    with_batch(ctx, x, spatial + 2, |xb| {
        let (dilations, pads, strides) = (Some(&dilation[..]), Some(&pads[..]), Some(&stride[..]));
        Ok(vec![ctx.b.onnx().conv(xb, w, bias, None, dilations, Some(group), None, pads, strides).like(xb)?])
    })
}

/// ONNX Conv is floating-point only; torch's integer convolution
/// accumulates in the integer type (wrapping), which float64 does not
/// reproduce past 2^53.
fn float_input(x: Value<'_, '_>) -> Result<(), String> {
    match builder::element_type(x.r#type()).filter(|e| !builder::is_float(*e)) {
        Some(element) => Err(format!(
            "convolution of a {element} tensor: torch accumulates in the integer type; \
             convert the input and weight to a floating-point type"
        )),
        None => Ok(()),
    }
}
