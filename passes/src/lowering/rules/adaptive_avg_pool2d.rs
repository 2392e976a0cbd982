use super::nn_common::with_batch;
use crate::lowering::{builder, Attr, Ctx, Rule};
use melior::ir::{attribute::FloatAttribute, r#type::RankedTensorType, Attribute, Type, Value, ValueLike};

pub const RULES: &[Rule] = &[
    Rule::custom("aten.adaptive_avg_pool2d.default", |c| adaptive_avg_pool(c, 2)).samples(&[
        "self: T[1,2,4,4]; output_size: [1,1]",
        "self: T[2,3,4,6]; output_size: [2,3]",
        "self: T[1,2,5,5]; output_size: [2,2]",
        "self: T[1,2,7,5]; output_size: [3,4]",
        "self: T[3,5,7]; output_size: [2,3]",
        "self: T[1,2,3,3]; output_size: [5,4]",
        "self: T[0,2,5,5]; output_size: [2,3]",
    ]),
    // Core ATen's spelling of the same op.
    Rule::custom("aten._adaptive_avg_pool2d.default", |c| adaptive_avg_pool(c, 2))
        .samples(&["self: T[1,2,4,4]; output_size: [2,2]", "self: T[1,2,7,5]; output_size: [3,4]"]),
];

/// torch's adaptive bins: `[floor(i * in / out), ceil((i + 1) * in / out))`.
pub(super) fn bins(input: i64, output: i64) -> Vec<(i64, i64)> {
    (0..output).map(|i| ((i * input) / output, ((i + 1) * input + output - 1) / output)).collect()
}

/// Output 1 everywhere: GlobalAveragePool; static sizes that are multiples of
/// the output: AveragePool; otherwise, axis by axis, a MatMul with the
/// [in, out] averaging matrix of torch's bins (the mean over a box is the
/// mean over each axis in turn).
pub(super) fn adaptive_avg_pool<'c, 'a>(c: &Ctx<'c, 'a>, spatial: usize) -> Result<Vec<Value<'c, 'a>>, String> {
    let x = c.args.tensor("self")?;
    let out = c.args.ints("output_size")?;
    if out.len() != spatial {
        return Err(format!("output_size has {} entries, expected {spatial}", out.len()));
    }
    with_batch(c, x, spatial + 2, |xb| {
        if out.iter().all(|&o| o == 1) {
            return Ok(vec![c.b.op_like("GlobalAveragePool", &[xb], &[], xb)?]);
        }
        let dims = builder::dims(xb.r#type()).ok_or("unknown rank")?;
        let inputs: Vec<i64> = dims[2..]
            .iter()
            .map(|d| d.ok_or("adaptive pooling to a size other than 1 needs static spatial sizes"))
            .collect::<Result<_, _>>()?;
        if inputs.iter().zip(&out).all(|(i, o)| *o > 0 && i % o == 0) {
            let kernel: Vec<i64> = inputs.iter().zip(&out).map(|(i, o)| i / o).collect();
            let attrs = [("kernel_shape", Attr::Ints(kernel.clone())), ("strides", Attr::Ints(kernel))];
            return Ok(vec![c.b.op_like("AveragePool", &[xb], &attrs, xb)?]);
        }
        let element = builder::element_type(xb.r#type()).ok_or("not a tensor")?;
        if !builder::is_float(element) {
            return Err("adaptive average pooling of a non-float tensor".into());
        }
        let rank = spatial + 2;
        let mut y = xb;
        for (i, (&input, &output)) in inputs.iter().zip(&out).enumerate() {
            if input == output {
                continue;
            }
            // [in, out] matrix: column j averages torch's bin j.
            let mut m = vec![0.0f64; (input * output) as usize];
            for (j, (s, e)) in bins(input, output).into_iter().enumerate() {
                for k in s..e {
                    m[(k * output) as usize + j] = 1.0 / (e - s) as f64;
                }
            }
            let ty: Type = RankedTensorType::new(&[input as u64, output as u64], element, None).into();
            let attrs: Vec<Attribute> = m.iter().map(|&v| FloatAttribute::new(c.b.context, element, v).into()).collect();
            let matrix = c.b.constant(ty, &attrs)?;
            let axis = 2 + i;
            if axis == rank - 1 {
                y = c.b.op_like("MatMul", &[y, matrix], &[], xb)?;
            } else {
                let mut perm: Vec<i64> = (0..rank as i64).collect();
                perm.swap(axis, rank - 1);
                let t = c.b.op_like("Transpose", &[y], &[("perm", Attr::Ints(perm.clone()))], xb)?;
                let t = c.b.op_like("MatMul", &[t, matrix], &[], xb)?;
                y = c.b.op_like("Transpose", &[t], &[("perm", Attr::Ints(perm))], xb)?;
            }
        }
        Ok(vec![c.b.op_like("Identity", &[y], &[], xb)?])
    })
}
