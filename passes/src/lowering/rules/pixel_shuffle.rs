use crate::lowering::{Attr, Rule};

/// torch's channel order is DepthToSpace's "CRD" mode.
pub const RULES: &[Rule] = &[Rule::custom("aten.pixel_shuffle.default", |c| {
    let x = c.args.tensor("self")?;
    let r = c.args.int("upscale_factor")?;
    if c.rank(x)? != 4 {
        return Err("pixel_shuffle of a tensor that is not 4-D".into());
    }
    Ok(vec![c.op("DepthToSpace", &[x], &[("blocksize", Attr::Int(r)), ("mode", Attr::String("CRD".into()))])?])
})
.samples(&["self: T[1,8,3,3]; upscale_factor: 2"])];
