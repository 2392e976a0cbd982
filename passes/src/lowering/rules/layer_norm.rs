use crate::lowering::{builder, Attr, Ctx, Rule};
use melior::ir::{Type, Value};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.layer_norm.default", |c| layer_norm(c, 1)).samples(&[
        "input: T[2,3,4]; normalized_shape: [4]; weight: T[4]; bias: T[4]",
        "input: T[2,3,4]; normalized_shape: [3,4]",
        "input: T[2,4]; normalized_shape: [4]; weight: T[4]",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.native_layer_norm.default", |c| layer_norm(c, 3))
        .samples(&["input: T[2,3,4]; normalized_shape: [4]; weight: T[4]; bias: T[4]; eps: 0.00001"]).dtypes(&["f32", "f16", "bf16"]),
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
    let attrs = [("axis", Attr::Int(axis)), ("epsilon", Attr::Float(eps as f32))];
    // Mean / InvStdDev are of the stash type (float32: ONNX allows float and
    // bfloat16 only); torch gives them in the input's dtype, computed in
    // float32 for half inputs: computed in float32 and cast. A double input
    // would be reduced in float32 precision: refused.
    let element = ctx.result_element(0)?;
    if results > 1 && element != ctx.b.f32_type() {
        if !builder::is_float(element) || element == Type::float64(ctx.b.context) {
            return Err(format!("native_layer_norm of {element}: LayerNormalization computes its statistics in float32"));
        }
        let f32_t = ctx.b.f32_type();
        let mut stash = vec![types[0]];
        for t in &types[1..] {
            stash.push(builder::with_element_type(*t, f32_t).ok_or("native_layer_norm: result is not a tensor")?);
        }
        let out = ctx.b.build("LayerNormalization", &inputs, &attrs, &stash)?;
        let mut vals = vec![out[0]];
        for (v, t) in out[1..].iter().zip(&types[1..]) {
            let code = crate::onnx_ir::data_type_code(element).ok_or("no ONNX data type")?;
            vals.push(ctx.b.op("Cast", &[*v], &[("to", Attr::Int(code))], *t)?);
        }
        return Ok(vals);
    }
    ctx.b.build("LayerNormalization", &inputs, &attrs, &types)
}
