use super::nn_common::{expand, slice, static_ints};
use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.convolution_backward.default", convolution_backward).samples(&[
    "grad_output: T[2,3,5,5]; input: T[2,2,5,5]; weight: T[3,2,3,3]; bias_sizes: [3]; stride: [1,1]; padding: [1,1]; dilation: [1,1]; transposed: false; output_padding: [0,0]; groups: 1; output_mask: [true, true, true]",
    "grad_output: T[2,4,4,2]; input: T[2,4,7,6]; weight: T[4,2,3,2]; bias_sizes: [4]; stride: [2,2]; padding: [1,0]; dilation: [1,2]; transposed: false; output_padding: [0,0]; groups: 2; output_mask: [true, true, true]",
    "grad_output: T[1,6,4]; input: T[1,3,9]; weight: T[6,1,3]; bias_sizes: [6]; stride: [2]; padding: [1]; dilation: [2]; transposed: false; output_padding: [0]; groups: 3; output_mask: [true, true, true]",
    "grad_output: T[1,2,3,3,2]; input: T[1,2,4,4,3]; weight: T[2,2,2,2,2]; bias_sizes: [2]; stride: [1,1,1]; padding: [0,0,0]; dilation: [1,1,1]; transposed: false; output_padding: [0,0,0]; groups: 1; output_mask: [true, true, true]",
    "grad_output: T[2,3,8,8]; input: T[2,2,4,4]; weight: T[2,3,3,3]; bias_sizes: [3]; stride: [2,2]; padding: [1,1]; dilation: [1,1]; transposed: true; output_padding: [1,1]; groups: 1; output_mask: [true, true, true]",
    "grad_output: T[1,4,7]; input: T[1,4,3]; weight: T[4,2,3]; bias_sizes: [4]; stride: [2]; padding: [0]; dilation: [1]; transposed: true; output_padding: [0]; groups: 2; output_mask: [true, true, true]",
])];

/// `(grad_input, grad_weight, grad_bias)` of a (transposed) convolution:
/// - grad_input: ConvTranspose of grad_output with the weight (output
///   padding chosen to give back the input size); for a transposed
///   convolution, a Conv;
/// - grad_weight: a grouped Conv with the sampled tensor's channels as the
///   batch and (group, batch) as channels, grad_output (input, when
///   transposed) as the kernel, stride and dilation swapped, cropped to the
///   kernel size;
/// - grad_bias: grad_output summed over all dims but 1.
fn convolution_backward<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let b = &c.b;
    let go = c.args.tensor("grad_output")?;
    let x = c.args.tensor("input")?;
    let w = c.args.tensor("weight")?;
    let wd = builder::dims(w.r#type()).ok_or("unknown weight rank")?;
    let spatial = wd.len().checked_sub(2).filter(|&s| s > 0).ok_or("convolution weight needs at least 3 dims")?;
    let xd = builder::dims(x.r#type()).ok_or("unknown input rank")?;
    let gd = builder::dims(go.r#type()).ok_or("unknown grad rank")?;
    if xd.len() != spatial + 2 || gd.len() != spatial + 2 {
        return Err("convolution_backward needs batched inputs".into());
    }
    let stat = |d: &[Option<i64>]| -> Result<Vec<i64>, String> {
        d.iter().map(|v| v.ok_or("convolution_backward needs static shapes".to_string())).collect()
    };
    let (xd, gd, wd) = (stat(&xd)?, stat(&gd)?, stat(&wd)?);
    let stride = expand(static_ints(c, "stride")?, spatial);
    let padding = expand(static_ints(c, "padding")?, spatial);
    let dilation = expand(static_ints(c, "dilation")?, spatial);
    let groups = c.args.int("groups")?;
    if [&stride, &padding, &dilation].iter().any(|v| v.len() != spatial) || groups <= 0 {
        return Err("convolution_backward: stride / padding / dilation / groups do not match the weight".into());
    }
    let transposed = c.args.bool("transposed")?;
    let kernel: Vec<i64> = wd[2..].to_vec();
    let pads: Vec<i64> = padding.iter().chain(padding.iter()).copied().collect();
    // Conv(x, w) with these strides and dilations, the pads and groups.
    let conv = |x: Value<'c, 'a>, w: Value<'c, 'a>, strides: &[i64], dilations: &[i64]| {
        c.b.onnx().conv(x, w, None, None, Some(dilations), Some(groups), None, Some(&pads), Some(strides))
    };
    // grad_input.
    let grad_input = if transposed {
        conv(go, w, &stride, &dilation).typed(c.result_type(0)?)?
    } else {
        let out_padding: Vec<i64> = (0..spatial)
            .map(|i| xd[2 + i] - ((gd[2 + i] - 1) * stride[i] - 2 * padding[i] + dilation[i] * (kernel[i] - 1) + 1))
            .collect();
        if out_padding.iter().zip(&stride).any(|(&p, &s)| p < 0 || p >= s.max(1)) {
            return Err("convolution_backward: the input size cannot be reached by a transposed convolution".into());
        }
        let output_padding = out_padding.iter().any(|&p| p != 0).then_some(&out_padding[..]);
        let (dilations, pads, strides) = (Some(&dilation[..]), Some(&pads[..]), Some(&stride[..]));
        let node = c.b.onnx().conv_transpose(go, w, None, None, dilations, Some(groups), None, output_padding, None, pads, strides);
        node.typed(c.result_type(0)?)?
    };
    // grad_weight: `sampled` is read at o*s - p + k*d, `kernel_t` indexed by o.
    let (sampled, sd, kernel_t) = if transposed { (go, &gd, x) } else { (x, &xd, go) };
    let per_group = sd[1] / groups;
    let mut grouped_shape = vec![sd[0], groups, per_group];
    grouped_shape.extend(&sd[2..]);
    let s5 = b.onnx().reshape(sampled, b.const_i64s(&grouped_shape)?, None).like(x)?;
    let mut perm: Vec<i64> = vec![2, 1, 0];
    perm.extend((3..3 + spatial as i64).collect::<Vec<_>>());
    let s5 = b.onnx().transpose(s5, Some(&perm)).like(x)?;
    let mut s4_shape = vec![per_group, groups * sd[0]];
    s4_shape.extend(&sd[2..]);
    let s4 = b.onnx().reshape(s5, b.const_i64s(&s4_shape)?, None).like(x)?;
    let mut swap: Vec<i64> = vec![1, 0];
    swap.extend((2..2 + spatial as i64).collect::<Vec<_>>());
    let k = b.onnx().transpose(kernel_t, Some(&swap.clone())).like(x)?;
    let gw = conv(s4, k, &dilation, &stride).like(x)?;
    let gw = b.onnx().transpose(gw, Some(&swap)).like(x)?;
    let axes: Vec<i64> = (2..2 + spatial as i64).collect();
    let gw = slice(c, gw, &axes, &vec![0; spatial], &kernel)?;
    let grad_weight = c.b.onnx().identity(gw).typed(c.result_type(1)?)?;
    let bias_axes: Vec<i64> = std::iter::once(0).chain(2..2 + spatial as i64).collect();
    let grad_bias = c.reduce(crate::Reduction::Sum, go, Some(&bias_axes), false, c.result_type(2)?)?;
    Ok(vec![grad_input, grad_weight, grad_bias])
}
