use crate::lowering::{Attr, Rule};

pub const RULES: &[Rule] = &[Rule::custom("aten.avg_pool2d.default", |c| {
    let x = c.args.tensor("self")?;
    let expand = |v: Vec<i64>| if v.len() == 1 { vec![v[0]; 2] } else { v };
    let kernel = expand(c.args.ints("kernel_size")?);
    let stride = expand(c.args.ints("stride")?);
    let stride = if stride.is_empty() { kernel.clone() } else { stride };
    let padding = expand(c.args.ints("padding")?);
    if !c.args.is_none("divisor_override")? {
        return Err("divisor_override is not supported".into());
    }
    Ok(vec![c.op(
        "AveragePool",
        &[x],
        &[
            ("kernel_shape", Attr::Ints(kernel)),
            ("strides", Attr::Ints(stride)),
            ("pads", Attr::Ints(padding.iter().chain(padding.iter()).copied().collect())),
            ("ceil_mode", Attr::Int(c.args.bool("ceil_mode")? as i64)),
            ("count_include_pad", Attr::Int(c.args.bool("count_include_pad")? as i64)),
        ],
    )?])
})
.samples(&[
    "self: T[1,2,5,5]; kernel_size: [2,2]",
    "self: T[1,2,5,5]; kernel_size: [3,3]; stride: [2,2]; padding: [1,1]; count_include_pad: false",
    "self: T[1,1,5,5]; kernel_size: [2,2]; stride: [2,2]; ceil_mode: true",
])];
