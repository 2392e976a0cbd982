use crate::lowering::{Attr, Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.max_pool2d.default", |c| max_pool(c, 2, false)).samples(&[
        "self: T[1,2,5,5]; kernel_size: [2,2]",
        "self: T[1,2,6,6]; kernel_size: [3,3]; stride: [2,2]; padding: [1,1]",
        "self: T[1,1,5,5]; kernel_size: [2,2]; stride: [2,2]; ceil_mode: true",
        "self: T[1,1,7,7]; kernel_size: [2,2]; dilation: [2,2]",
    ]),
    Rule::custom("aten.max_pool2d_with_indices.default", |c| max_pool(c, 2, true))
        .samples(&["self: T[1,2,5,5]; kernel_size: [2,2]; returns: [0]"])
        .refuses(&[("self: T[1,2,4,4]; kernel_size: [2,2]", "indices")]),
    Rule::custom("aten.max_pool1d.default", |c| max_pool(c, 1, false))
        .samples(&["self: T[1,2,8]; kernel_size: [2]", "self: T[1,2,9]; kernel_size: [3]; stride: [2]; padding: [1]"]),
];

/// `MaxPool`. torch's indices count within each (N, C) plane and ONNX's over
/// the whole tensor, so a used indices result is refused.
fn max_pool<'c, 'a>(ctx: &Ctx<'c, 'a>, spatial: usize, with_indices: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let expand = |v: Vec<i64>| {
        if v.len() == 1 && spatial > 1 {
            vec![v[0]; spatial]
        } else {
            v
        }
    };
    let kernel = expand(ctx.args.ints("kernel_size")?);
    let stride = expand(ctx.args.ints("stride")?);
    let stride = if stride.is_empty() { kernel.clone() } else { stride };
    let padding = expand(ctx.args.ints("padding")?);
    let dilation = expand(ctx.args.ints("dilation")?);
    let attrs = [
        ("kernel_shape", Attr::Ints(kernel)),
        ("strides", Attr::Ints(stride)),
        ("pads", Attr::Ints(padding.iter().chain(padding.iter()).copied().collect())),
        ("dilations", Attr::Ints(dilation)),
        ("ceil_mode", Attr::Int(ctx.args.bool("ceil_mode")? as i64)),
    ];
    if !with_indices {
        return Ok(vec![ctx.op("MaxPool", &[x], &attrs)?]);
    }
    let indices = ctx.args.op.result(1).map_err(|e| e.to_string())?;
    if crate::ir::has_uses(indices.into()) {
        return Err("the indices of max_pool2d_with_indices are used; ONNX MaxPool indices differ".into());
    }
    ctx.b.build("MaxPool", &[x], &attrs, &[ctx.result_type(0)?, ctx.result_type(1)?])
}
