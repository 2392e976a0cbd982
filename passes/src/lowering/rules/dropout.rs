use crate::lowering::Rule;

pub const RULES: &[Rule] = &[Rule::custom("aten.dropout.default", |c| {
    if c.args.bool("train")? {
        return Err("dropout with train=True is random; export the model in eval mode".into());
    }
    Ok(vec![c.args.tensor("input")?])
})
.samples(&["input: T[2,3]; p: 0.5; train: false"])
.refuses(&[("input: T[2,3]; p: 0.5; train: true", "train=True")])];
