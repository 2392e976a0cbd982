use super::conversion_common::resize_to;
use crate::{builder, Rule};
use melior::ir::ValueLike;

/// `resize_as` (what aten-remove-inplace makes of `resize_as_`): `resize`
/// to the template's (static) shape, see resize.rs.
pub const RULES: &[Rule] = &[Rule::custom("aten.resize_as.default", |c| {
    let template = c.args.tensor("the_template")?;
    let size: Vec<i64> = builder::dims(template.r#type())
        .and_then(|d| d.into_iter().collect::<Option<Vec<i64>>>())
        .ok_or("resize_as needs a template of static shape")?;
    Ok(vec![resize_to(c, &size)?])
})
.samples(&[
    "self: T[5,5,5]; the_template: T[5,5,5]",
    "self: T[]; the_template: T[]",
    "self: T[4,6]; the_template: T[3,2,2]",
])
.dtypes(&["f32", "i64"])];
