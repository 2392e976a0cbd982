use crate::lowering::{Attr, Ctx, Rule};
use melior::ir::{Type, Value};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.layer_norm.default", |c| layer_norm(c, 1)).samples(&[
        "input: T[2,3,4]; normalized_shape: [4]; weight: T[4]; bias: T[4]",
        "input: T[2,3,4]; normalized_shape: [3,4]",
        "input: T[2,4]; normalized_shape: [4]; weight: T[4]",
    ]),
    Rule::custom("aten.native_layer_norm.default", |c| layer_norm(c, 3))
        .samples(&["input: T[2,3,4]; normalized_shape: [4]; weight: T[4]; bias: T[4]; eps: 0.00001"]),
];

/// `LayerNormalization` over the last `len(normalized_shape)` dims (opset
/// 17); its optional Mean / InvStdDev outputs are native_layer_norm's mean
/// and rstd.
fn layer_norm<'c, 'a>(ctx: &Ctx<'c, 'a>, results: usize) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = ctx.args.tensor("input")?;
    let normalized = ctx.args.sym_ints("normalized_shape")?;
    let axis = -(normalized.len() as i64);
    let scale = match ctx.args.opt_tensor("weight")? {
        Some(w) => w,
        None => {
            let shape = ctx.int_list_tensor(&normalized)?;
            let one = ctx.b.const_like(x, 1.0)?;
            ctx.b.op_like("Expand", &[one, shape], &[], x)?
        }
    };
    let mut inputs = vec![x, scale];
    if let Some(bias) = ctx.args.opt_tensor("bias")? {
        inputs.push(bias);
    }
    let eps = ctx.args.float("eps")?;
    let types: Vec<Type> = (0..results).map(|i| ctx.result_type(i)).collect::<Result<_, _>>()?;
    ctx.b.build(
        "LayerNormalization",
        &inputs,
        &[("axis", Attr::Int(axis)), ("epsilon", Attr::Float(eps as f32))],
        &types,
    )
}
