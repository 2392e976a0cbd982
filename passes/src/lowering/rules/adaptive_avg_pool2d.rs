use crate::lowering::{builder, Attr, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.adaptive_avg_pool2d.default", adaptive_avg_pool2d)
        .samples(&["self: T[1,2,4,4]; output_size: [1,1]", "self: T[2,3,4,6]; output_size: [2,3]"])
        .refuses(&[("self: T[1,2,5,5]; output_size: [2,2]", "multiples of the output size")]),
    // Core ATen's spelling of the same op.
    Rule::custom("aten._adaptive_avg_pool2d.default", adaptive_avg_pool2d)
        .samples(&["self: T[1,2,4,4]; output_size: [2,2]"]),
];

/// Global pooling for output 1x1; otherwise an AveragePool when the input
/// size is static and a multiple of the output size.
fn adaptive_avg_pool2d<'c, 'a>(c: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let out = c.args.ints("output_size")?;
    if out.iter().all(|&o| o == 1) {
        return Ok(vec![c.op("GlobalAveragePool", &[x], &[])?]);
    }
    let dims = builder::dims(x.r#type()).ok_or("unknown rank")?;
    let spatial = &dims[dims.len() - 2..];
    let mut kernel = Vec::new();
    for (d, o) in spatial.iter().zip(&out) {
        match d {
            Some(d) if d % o == 0 => kernel.push(d / o),
            _ => return Err("adaptive pooling needs static input sizes that are multiples of the output size".into()),
        }
    }
    Ok(vec![c.op(
        "AveragePool",
        &[x],
        &[("kernel_shape", Attr::Ints(kernel.clone())), ("strides", Attr::Ints(kernel))],
    )?])
}
