//! The graph JSON importer's first stage: a valid archive (the mlp fixture)
//! whose `models/model.json` is replaced by the fuzzer's bytes, so mutations
//! reach the schema checks instead of failing at the ZIP layer.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../../pt2/tests/common/mod.rs"]
#[allow(dead_code)]
mod common;

static MLP: &[u8] = include_bytes!("../../../tests/fixtures/mlp.pt2");

fuzz_target!(|data: &[u8]| {
    let template = aten2onnx_pt2::Archive::from_bytes("mlp.pt2", MLP.to_vec()).expect("the fixture opens");
    let members: Vec<common::Member> = common::members_of(&template)
        .into_iter()
        .map(|m| if m.name.ends_with("models/model.json") { common::Member::new(m.name, data.to_vec()) } else { m })
        .collect();
    let bytes = common::write_zip(&members, common::ZipOptions { zip64: false, align: true });
    if let Ok(archive) = aten2onnx_pt2::Archive::from_bytes("fuzz.pt2", bytes) {
        let names: Vec<String> = archive.weight_names().map(str::to_string).collect();
        for name in &names {
            let _ = archive.weight(name).map(|t| (t.numel(), t.storage.len()));
        }
    }
});
