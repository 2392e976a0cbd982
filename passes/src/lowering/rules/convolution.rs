use crate::lowering::{Attr, Ctx, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.convolution.default", |c| conv(c, c.args.bool("transposed")?)).samples(&["input: T[1,2,5,5]; weight: T[3,2,3,3]; bias: T[3]; stride: [1,1]; padding: [1,1]; dilation: [1,1]; transposed: false; output_padding: [0,0]; groups: 1", "input: T[1,4,6,6]; weight: T[4,2,3,3]; bias: none; stride: [2,2]; padding: [0,0]; dilation: [1,1]; transposed: false; output_padding: [0,0]; groups: 2", "input: T[1,2,4,4]; weight: T[2,3,3,3]; bias: T[3]; stride: [2,2]; padding: [1,1]; dilation: [1,1]; transposed: true; output_padding: [1,1]; groups: 1"]),
    Rule::custom("aten.conv2d.default", |c| conv(c, false)).samples(&["input: T[1,2,5,5]; weight: T[3,2,3,3]; bias: T[3]; padding: [1,1]", "input: T[2,4,9,9]; weight: T[4,2,3,3]; stride: [2,2]; dilation: [2,2]; groups: 2"]),
    Rule::custom("aten.conv1d.default", |c| conv(c, false)).samples(&["input: T[1,2,8]; weight: T[3,2,3]; bias: T[3]; stride: [2]", "input: T[1,2,8]; weight: T[4,2,3]; padding: [1]"]),
    Rule::custom("aten.conv_transpose2d.input", |c| conv(c, true)).samples(&[
        "input: T[1,2,4,4]; weight: T[2,3,3,3]; bias: T[3]; stride: [2,2]; padding: [1,1]; output_padding: [1,1]",
        "input: T[1,4,3,3]; weight: T[4,1,2,2]; groups: 2",
    ]),
    Rule::custom("aten.conv2d.padding", conv_padding_string).samples(&[
        "input: T[1,2,6,6]; weight: T[3,2,3,3]; bias: T[3]; padding: \"same\"; dilation: [2,2]",
        "input: T[1,2,6,6]; weight: T[3,2,2,2]; padding: \"same\"",
        "input: T[1,2,6,6]; weight: T[3,2,3,3]; padding: \"valid\"",
    ]),
    Rule::custom("aten.conv3d.default", |c| conv(c, false)).samples(&["input: T[1,2,4,4,4]; weight: T[3,2,3,3,3]; padding: [1,1,1]"]),
];

/// `Conv` / `ConvTranspose` with torch's symmetric padding.
pub(super) fn conv<'c, 'a>(ctx: &Ctx<'c, 'a>, transposed: bool) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("input")?;
    let w = ctx.args.tensor("weight")?;
    let spatial = ctx.rank(w)? - 2;
    let expand = |v: Vec<i64>| {
        if v.len() == 1 && spatial > 1 {
            vec![v[0]; spatial]
        } else {
            v
        }
    };
    let stride = expand(ctx.args.ints("stride")?);
    let padding = expand(
        ctx.args.ints("padding").map_err(|_| "string padding ('same'/'valid') is not supported yet".to_string())?,
    );
    let dilation = expand(ctx.args.ints("dilation")?);
    let groups = ctx.args.int("groups")?;
    let mut attrs = vec![
        ("strides", Attr::Ints(stride)),
        ("pads", Attr::Ints(padding.iter().chain(padding.iter()).copied().collect())),
        ("dilations", Attr::Ints(dilation)),
        ("group", Attr::Int(groups)),
    ];
    if transposed {
        let output_padding = expand(ctx.args.ints("output_padding")?);
        if output_padding.iter().any(|&p| p != 0) {
            attrs.push(("output_padding", Attr::Ints(output_padding)));
        }
    }
    let mut inputs = vec![x, w];
    if let Some(bias) = ctx.args.opt_tensor("bias")? {
        inputs.push(bias);
    }
    Ok(vec![ctx.op(if transposed { "ConvTranspose" } else { "Conv" }, &inputs, &attrs)?])
}

/// `conv2d(padding="valid" | "same")`: explicit pads; for "same" the total
/// `dilation * (kernel - 1)` is split with the extra pad at the end, like torch.
fn conv_padding_string<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("input")?;
    let w = ctx.args.tensor("weight")?;
    let kernel = crate::lowering::builder::dims(melior::ir::ValueLike::r#type(&w)).ok_or("unknown weight shape")?;
    let spatial = kernel.len() - 2;
    let expand = |v: Vec<i64>| if v.len() == 1 && spatial > 1 { vec![v[0]; spatial] } else { v };
    let stride = expand(ctx.args.ints("stride")?);
    let dilation = expand(ctx.args.ints("dilation")?);
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
    let attrs = [
        ("strides", Attr::Ints(stride)),
        ("pads", Attr::Ints([begins, ends].concat())),
        ("dilations", Attr::Ints(dilation)),
        ("group", Attr::Int(ctx.args.int("groups")?)),
    ];
    let mut inputs = vec![x, w];
    if let Some(bias) = ctx.args.opt_tensor("bias")? {
        inputs.push(bias);
    }
    Ok(vec![ctx.op("Conv", &inputs, &attrs)?])
}
