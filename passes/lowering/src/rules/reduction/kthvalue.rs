use super::tensor_common::{pick, sort};
use crate::{Ctx, Rule};
use melior::ir::{Value, ValueLike};

pub const RULES: &[Rule] = &[Rule::custom("aten.kthvalue.default", kthvalue)
    .samples(&[
        "self: T[3,5]; k: 2",
        "self: T[3,5]; k: 3; dim: 0; keepdim: true",
        "self: T[6]; k: 6",
        "self: T[6]; k: 1",
        "self: T[2,3,4]; k: 2; dim: 1",
        "self: T[]; k: 1",
    ])
    .dtypes(&["f32", "f64"])
    .refuses(&[("self: i64[3,5]; k: 2", "quickselect")])];

/// The `k`-th smallest along `dim` (1-based): element `k-1` of the stable
/// ascending sort (NaN largest, like torch).
fn kthvalue<'c, 'a>(ctx: &Ctx<'c, 'a>) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("self")?;
    let rank = ctx.rank(x)?;
    let dim = ctx.dim(ctx.args.int("dim")?, rank)?;
    let k = match ctx.args.sym_int("k")? {
        crate::IntArg::Static(k) => k,
        _ => return Err("kthvalue with a symbolic k is not supported".into()),
    };
    if rank == 0 {
        if k != 1 {
            return Err(format!("kthvalue: k={k} is out of range for a 0-d tensor"));
        }
        return Ok(vec![x, ctx.b.const_i64_scalar(0)?]);
    }
    // Among equal values torch returns the index its quickselect leaves at
    // position k-1 (not the first or last occurrence): the stable sort here
    // agrees only without ties. Integer and bool inputs are full of ties, so
    // their index output is refused rather than silently different; float
    // inputs (ties are rare) keep it.
    let element = crate::builder::element_type(x.r#type()).ok_or("not a tensor")?;
    if !crate::builder::is_float(element) && ctx.result_used(1)? {
        return Err(format!(
            "kthvalue of a {element} tensor with its indices used: among equal values torch returns the index its \
             quickselect happens to leave at position k (implementation-defined), which an ONNX sort cannot \
             reproduce, and integer data is full of ties; use only the values, or torch.sort / torch.topk \
             (stable, first occurrence) for indices"
        ));
    }
    let (values, indices) = sort(ctx, x, dim, false)?;
    pick(ctx, values, indices, dim, k - 1, ctx.args.bool("keepdim")?)
}
