use crate::lowering::{Ctx, IntArg, Rule};
use melior::ir::Value;

pub const RULES: &[Rule] = &[
    Rule::custom("aten.arange.default", |c| arange(c, None, "end", None))
        .samples(&["end: 5", "end: 4; dtype: dtype(f32)"]),
    Rule::custom("aten.arange.start", |c| arange(c, Some("start"), "end", None))
        .samples(&["start: 2; end: 7", "start: -3; end: 3; dtype: dtype(f32)"]),
    Rule::custom("aten.arange.start_step", |c| arange(c, Some("start"), "end", Some("step"))).samples(&[
        "start: 1; end: 10; step: 3",
        "start: 0.5; end: 2.5; step: 0.5",
        "start: 5; end: 0; step: -2",
    ]),
];

/// `Range(start, end, step)` in the result dtype.
fn arange<'c, 'a>(
    ctx: &Ctx<'c, 'a>,
    start: Option<&str>,
    end: &str,
    step: Option<&str>,
) -> Result<Vec<Value<'c, 'a>>, String> {
    let element = ctx.result_element(0)?;
    let scalar = |name: Option<&str>, default: f64| -> Result<Value<'c, 'a>, String> {
        let Some(name) = name else {
            return ctx.b.const_scalar(element, default);
        };
        match ctx.args.sym_int(name) {
            Ok(IntArg::Dynamic(v)) => ctx.int_scalar(IntArg::Dynamic(v), element),
            Ok(IntArg::Static(v)) => ctx.b.const_scalar(element, v as f64),
            Err(_) => ctx.b.const_scalar(element, ctx.args.number(name)?.as_f64()),
        }
    };
    let (s, e, d) = (scalar(start, 0.0)?, scalar(Some(end), 0.0)?, scalar(step, 1.0)?);
    Ok(vec![ctx.op("Range", &[s, e, d], &[])?])
}
