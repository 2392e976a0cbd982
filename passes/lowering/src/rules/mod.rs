//! Lowering rules, one file per ATen op name: the rule of `aten.gelu.default`
//! is in `gelu.rs` (`where_.rs` for the keyword `where`). Overloads of one op
//! share its file. Adding a rule is adding its file: `passes/lowering/build.rs` lists
//! every file of this directory as a module, and those declaring
//! `pub const RULES` in [`ALL`] (files without it, like `common.rs`, are
//! helpers shared by rules).

use super::Rule;

include!(concat!(env!("OUT_DIR"), "/rules.rs"));
