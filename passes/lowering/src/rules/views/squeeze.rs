use crate::{builder, Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.squeeze.dim", |c| squeeze(c, Some(vec![c.args.int("dim")?])))
        .complex(super::complex_common::reshape)
        .complex_samples(&["self: C[3,1,4]; dim: -2"])
        .samples(&["self: T[3,1,4]; dim: 1", "self: T[3,4]; dim: 0"])
        .dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.squeeze.dims", |c| squeeze(c, Some(c.args.ints("dim")?)))
        .complex(super::complex_common::reshape)
        .complex_samples(&["self: C[1,3,1]; dim: [0,2]"])
        .samples(&["self: T[1,3,1]; dim: [0,2]"])
        .dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"]),
    Rule::custom("aten.squeeze.default", |c| squeeze(c, None))
        .complex(super::complex_common::reshape)
        .complex_samples(&["self: C[1,3,1]"])
        .samples(&["self: T[1,3,1]", "self: T[2,3]"])
        .dtypes(&["f32", "f16", "bf16", "f64", "i64", "i32", "i8", "u8", "bool"]),
];

/// torch ignores dims that are not 1; ONNX rejects them, so only dims known
/// to be 1 are squeezed.
fn squeeze<'c, 'a>(ctx: &Ctx<'c, 'a>, dims: Option<Vec<i64>>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let shape = builder::dims(x.r#type()).ok_or("squeeze needs a ranked input")?;
    let rank = shape.len();
    if rank == 0 {
        // torch accepts dims 0 / -1 on a 0-d tensor: nothing to squeeze.
        if let Some(d) = &dims {
            for &d in d {
                ctx.dim(d, 0)?;
            }
        }
        return Ok(vec![x]);
    }
    let candidates: Vec<i64> = match dims {
        Some(d) => d.into_iter().map(|d| ctx.norm_dim(d, rank)).collect(),
        None => (0..rank as i64).collect(),
    };
    let mut axes = Vec::new();
    let mut dynamic = Vec::new();
    for d in candidates {
        match shape.get(d as usize) {
            Some(Some(1)) => axes.push(d),
            Some(Some(_)) => {}
            Some(None) => dynamic.push(d),
            None => return Err(format!("dim {d} out of range")),
        }
    }
    // A dynamic dim is squeezed only when it is 1 at run time. torch.export
    // decides at capture time (size-oblivious: a dynamic size is taken not
    // to be 1) and records it in the result type: the capture's rank shows
    // whether the dynamic dims stay.
    if let Some(&d) = dynamic.first() {
        let result_rank = builder::rank(ctx.result_type(0)?);
        if result_rank != Some(rank - axes.len()) {
            return Err(format!("cannot tell whether dynamic dim {d} is 1"));
        }
    }
    if axes.is_empty() {
        return Ok(vec![x]);
    }
    let axes = ctx.b.const_i64s(&axes)?;
    Ok(vec![ctx.b.onnx().squeeze(x, Some(axes)).typed(ctx.result_type(0)?)?])
}
