use crate::lowering::Rule;

/// Identity in eval mode; with train=True the output is random, refused
/// (export the model in eval mode).
pub const RULES: &[Rule] = &[Rule::custom("aten.feature_dropout.default", |c| {
    if c.args.bool("train")? {
        return Err("feature_dropout with train=True is random; export the model in eval mode".into());
    }
    Ok(vec![c.args.tensor("input")?])
})
.samples(&["input: T[2,3,4]; p: 0.5; train: false"])
.refuses(&[("input: T[2,3,4]; p: 0.5; train: true", "train=True")])];
