use crate::{builder, Ctx, Rule};
use melior::ir::{Type, Value};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.layer_norm.default", |c| layer_norm(c, 1)).samples(&[
        "input: T[2,3,4]; normalized_shape: [4]; weight: T[4]; bias: T[4]",
        "input: T[2,3,4]; normalized_shape: [3,4]",
        "input: T[2,4]; normalized_shape: [4]; weight: T[4]",
    ]).dtypes(&["f32", "f16", "bf16", "f64"]),
    Rule::custom("aten.native_layer_norm.default", |c| layer_norm(c, 3))
        .samples(&[
            "input: T[2,3,4]; normalized_shape: [4]; weight: T[4]; bias: T[4]; eps: 0.00001",
            // torch's mixed form for half inputs: float32 weight and bias.
            "input: T[2,3,4]; normalized_shape: [4]; weight: f32[4]; bias: f32[4]; eps: 0.00001",
        ])
        .dtypes(&["f32", "f16", "bf16"]),
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
            ctx.b.onnx().expand(one, shape).like(x)?
        }
    };
    let mut inputs = vec![x, scale];
    if let Some(bias) = ctx.args.opt_tensor("bias")? {
        inputs.push(bias);
    }
    let eps = ctx.args.float("eps")?;
    let types: Vec<Type> = (0..results).map(|i| ctx.result_type(i)).collect::<Result<_, _>>()?;
    // LayerNormalization(x, scale, bias?).
    let layer_normalization = |inputs: &[Value<'c, 'a>], types: &[Type<'c>]| {
        let node = ctx.b.onnx().layer_normalization(inputs[0], inputs[1], inputs.get(2).copied(), Some(axis), Some(eps as f32), None);
        node.results(types)
    };
    // torch's mixed form (a half input with float32 weight/bias, as in
    // models keeping their norms in float32 or under autocast) computes in
    // float32 and returns the input's type; ONNX wants one type: computed in
    // the parameters' type and cast back.
    let x_element = builder::element_type(melior::ir::ValueLike::r#type(&x)).ok_or("input is not a tensor")?;
    let params: Vec<Type> =
        inputs[1..].iter().filter_map(|v| builder::element_type(melior::ir::ValueLike::r#type(v))).collect();
    if let Some(&wide) = params.iter().find(|t| **t != x_element) {
        if !builder::is_float(wide) || params.iter().any(|t| *t != wide) {
            return Err(format!("layer_norm of a {x_element} input with parameters of types {params:?}"));
        }
        let widen = |v: &Value<'c, 'a>| -> Result<Value<'c, 'a>, String> {
            match builder::element_type(melior::ir::ValueLike::r#type(v)) {
                Some(t) if t == wide => Ok(*v),
                _ => ctx.b.cast(*v, wide),
            }
        };
        let inputs: Vec<Value> = inputs.iter().map(widen).collect::<Result<_, _>>()?;
        let wide_types: Vec<Type> = types
            .iter()
            .map(|t| builder::with_element_type(*t, wide).ok_or("layer_norm: result is not a tensor"))
            .collect::<Result<_, _>>()?;
        let out = layer_normalization(&inputs, &wide_types)?;
        return out
            .iter()
            .zip(&types)
            .map(|(v, t)| {
                let element = builder::element_type(*t).ok_or("layer_norm: result is not a tensor")?;
                ctx.b.cast(*v, element)
            })
            .collect();
    }
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
        let out = layer_normalization(&inputs, &stash)?;
        let mut vals = vec![out[0]];
        for (v, t) in out[1..].iter().zip(&types[1..]) {
            let code = crate::onnx_ir::data_type_code(element).ok_or("no ONNX data type")?;
            vals.push(ctx.b.onnx().cast(*v, None, None, code).typed(*t)?);
        }
        return Ok(vals);
    }
    layer_normalization(&inputs, &types)
}
