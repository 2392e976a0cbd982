//! Malformed inputs: the checked-in bad fixtures, synthetic archives, and
//! truncation/corruption sweeps (errors, never panics).

mod common;

use aten2onnx_pt2::*;
use common::{fixture, members_of, write_zip, Member, ZipOptions};

fn open_err(name: &str) -> Error {
    let e = Archive::open(fixture(name)).expect_err(name);
    let msg = e.to_string();
    assert!(msg.contains(name), "message does not name the file: {msg}");
    assert_eq!(e.path(), fixture(name));
    e
}

#[test]
fn truncated_fixture() {
    let e = open_err("truncated.pt2");
    assert!(matches!(e, Error::CorruptZip { .. }), "{e:?}");
    assert!(e.to_string().contains("truncated"), "{e}");
}

#[test]
fn not_a_zip_fixture() {
    let e = open_err("not_a_zip.pt2");
    assert!(matches!(e, Error::NotAZip { .. }), "{e:?}");
}

#[test]
fn bad_schema_fixture() {
    let e = open_err("bad_schema.pt2");
    match &e {
        Error::UnsupportedSchemaVersion { found, supported, entry, .. } => {
            assert_eq!(found.major, 99);
            assert_eq!(*supported, 8);
            assert_eq!(entry, "mlp/models/model.json");
        }
        _ => panic!("{e:?}"),
    }
    assert!(e.to_string().contains("99."), "{e}");
}

#[test]
fn corrupt_json_fixture() {
    let e = open_err("corrupt_json.pt2");
    match &e {
        Error::Json { entry, line, column, .. } => {
            assert_eq!(entry, "mlp/models/model.json");
            assert_eq!((*line, *column), (1, 41));
        }
        _ => panic!("{e:?}"),
    }
    assert!(e.to_string().contains("model.json:1:41"), "{e}");
}

#[test]
fn missing_file() {
    let e = Archive::open(fixture("does_not_exist.pt2")).unwrap_err();
    assert!(matches!(e, Error::Io { .. }), "{e:?}");
    assert!(e.to_string().contains("does_not_exist.pt2"), "{e}");
}

// --------------------------------------------------------------------------
// Synthetic archives built from mlp.pt2's members.
// --------------------------------------------------------------------------

fn mlp_members() -> Vec<Member> {
    members_of(&Archive::open(fixture("mlp.pt2")).unwrap())
}

fn member<'a>(ms: &'a mut [Member], suffix: &str) -> &'a mut Member {
    ms.iter_mut().find(|m| m.name.ends_with(suffix)).unwrap()
}

fn replace(data: &[u8], from: &str, to: &str) -> Vec<u8> {
    let s = std::str::from_utf8(data).unwrap();
    assert!(s.contains(from), "`{from}` not found");
    s.replacen(from, to, 1).into_bytes()
}

fn open_synthetic(ms: &[Member], opts: ZipOptions) -> Result<Archive> {
    Archive::from_bytes("synthetic.pt2", write_zip(ms, opts))
}

#[test]
fn rebuilt_archive_opens_plain_and_zip64() {
    for opts in
        [ZipOptions::default(), ZipOptions { zip64: true, align: true }, ZipOptions { zip64: true, align: false }]
    {
        let a = open_synthetic(&mlp_members(), opts).unwrap();
        let w = a.weight("fc1.weight").unwrap();
        assert_eq!(w.contiguous_bytes().unwrap().len(), 512);
        if opts.align {
            let off = w.storage.as_ptr() as usize - a.bytes().as_ptr() as usize;
            assert_eq!(off % 64, 0);
        }
    }
}

#[test]
fn compressed_entry_is_rejected() {
    let mut ms = mlp_members();
    member(&mut ms, "models/model.json").method = 8;
    let e = open_synthetic(&ms, ZipOptions::default()).unwrap_err();
    assert!(
        matches!(&e, Error::UnsupportedCompression { entry, method: 8, .. }
            if entry == "mlp/models/model.json"),
        "{e:?}"
    );
    let msg = e.to_string();
    assert!(msg.contains("synthetic.pt2") && msg.contains("deflate"), "{msg}");

    // A compressed weight only fails when it is accessed.
    let mut ms = mlp_members();
    member(&mut ms, "weights/weight_0").method = 8;
    let a = open_synthetic(&ms, ZipOptions::default()).unwrap();
    assert!(a.weight("fc1.bias").is_ok());
    let e = a.weight("fc1.weight").unwrap_err();
    assert!(matches!(e, Error::UnsupportedCompression { .. }), "{e:?}");
}

#[test]
fn wrong_archive_format() {
    let mut ms = mlp_members();
    member(&mut ms, "/archive_format").data = b"zip".to_vec();
    let e = open_synthetic(&ms, ZipOptions::default()).unwrap_err();
    assert!(matches!(e, Error::NotPt2 { .. }), "{e:?}");
    assert!(e.to_string().contains("`zip`"), "{e}");
}

#[test]
fn big_endian_is_rejected() {
    let mut ms = mlp_members();
    member(&mut ms, "/byteorder").data = b"big".to_vec();
    let e = open_synthetic(&ms, ZipOptions::default()).unwrap_err();
    assert!(matches!(e, Error::NotPt2 { .. }), "{e:?}");
}

#[test]
fn missing_model() {
    let mut ms = mlp_members();
    ms.retain(|m| !m.name.ends_with("models/model.json"));
    let e = open_synthetic(&ms, ZipOptions::default()).unwrap_err();
    assert!(matches!(&e, Error::MissingEntry { entry, .. } if entry == "mlp/models/model.json"), "{e:?}");
}

#[test]
fn renamed_model_is_found() {
    let mut ms = mlp_members();
    member(&mut ms, "models/model.json").name = "mlp/models/other.json".into();
    let a = open_synthetic(&ms, ZipOptions::default()).unwrap();
    assert_eq!(a.model_name(), "other");
    // Configs are looked up by model name: none for `other`, so no weights.
    assert_eq!(a.weight_names().len(), 0);
}

#[test]
fn no_root_directory() {
    let ms = vec![Member::new("model.json", b"{}".to_vec())];
    let e = open_synthetic(&ms, ZipOptions::default()).unwrap_err();
    assert!(matches!(e, Error::NotPt2 { .. }), "{e:?}");
    let e = open_synthetic(&[], ZipOptions::default()).unwrap_err();
    assert!(matches!(e, Error::NotPt2 { .. }), "{e:?}");
}

#[test]
fn unknown_union_tag_is_named() {
    let mut ms = mlp_members();
    let m = member(&mut ms, "models/model.json");
    m.data = replace(&m.data, "\"as_sym_ints\"", "\"as_quaternions\"");
    let e = open_synthetic(&ms, ZipOptions::default()).unwrap_err();
    assert!(matches!(e, Error::Json { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains("as_quaternions"), "{msg}");
    assert!(msg.contains("synthetic.pt2: mlp/models/model.json:1:"), "{msg}");

    let mut ms = mlp_members();
    let m = member(&mut ms, "models/model.json");
    m.data = replace(&m.data, "{\"user_output\":", "{\"teleported_output\":");
    let e = open_synthetic(&ms, ZipOptions::default()).unwrap_err();
    assert!(e.to_string().contains("teleported_output"), "{e}");
}

#[test]
fn unknown_dtype_is_an_error() {
    let mut ms = mlp_members();
    let m = member(&mut ms, "models/model.json");
    m.data = replace(&m.data, "\"dtype\": 7", "\"dtype\": 77");
    let e = open_synthetic(&ms, ZipOptions::default()).unwrap_err();
    assert!(e.to_string().contains("unknown ScalarType value 77"), "{e}");
}

#[test]
fn schema_version_major_check_on_valid_json() {
    let mut ms = mlp_members();
    let m = member(&mut ms, "models/model.json");
    m.data = replace(&m.data, "\"major\": 8", "\"major\": 7");
    let e = open_synthetic(&ms, ZipOptions::default()).unwrap_err();
    assert!(matches!(&e, Error::UnsupportedSchemaVersion { found, .. } if found.major == 7), "{e:?}");
    // Newer minor versions are fine.
    let mut ms = mlp_members();
    let m = member(&mut ms, "models/model.json");
    m.data = replace(&m.data, "\"minor\": ", "\"minor\": 9");
    open_synthetic(&ms, ZipOptions::default()).unwrap();
}

#[test]
fn pickled_payload_is_rejected_on_access() {
    let mut ms = mlp_members();
    let m = member(&mut ms, "model_weights_config.json");
    m.data = replace(&m.data, "\"use_pickle\": false", "\"use_pickle\": true");
    let a = open_synthetic(&ms, ZipOptions::default()).unwrap();
    let e = a.weight("fc1.weight").unwrap_err();
    assert!(matches!(&e, Error::PickledPayload { entry, .. } if entry == "mlp/data/weights/weight_0"), "{e:?}");
    assert!(e.to_string().contains("pickle"), "{e}");
    assert!(a.weight("fc1.bias").is_ok());
}

#[test]
fn weight_larger_than_storage_is_rejected() {
    let mut ms = mlp_members();
    let m = member(&mut ms, "weights/weight_0");
    m.data.truncate(100);
    let a = open_synthetic(&ms, ZipOptions::default()).unwrap();
    let e = a.weight("fc1.weight").unwrap_err();
    assert!(matches!(e, Error::InvalidTensor { .. }), "{e:?}");
    assert!(e.to_string().contains("512 bytes"), "{e}");
}

#[test]
fn missing_weight_file() {
    let mut ms = mlp_members();
    ms.retain(|m| !m.name.ends_with("weights/weight_1"));
    let a = open_synthetic(&ms, ZipOptions::default()).unwrap();
    let e = a.weight("fc1.bias").unwrap_err();
    assert!(matches!(&e, Error::MissingEntry { entry, .. } if entry == "mlp/data/weights/weight_1"), "{e:?}");
}

#[test]
fn legacy_pickled_weights_are_rejected() {
    let mut ms = mlp_members();
    ms.retain(|m| !m.name.ends_with("model_weights_config.json"));
    ms.push(Member::new("mlp/data/weights/model.pt", b"PK".to_vec()));
    let e = open_synthetic(&ms, ZipOptions::default()).unwrap_err();
    assert!(matches!(e, Error::NotPt2 { .. }), "{e:?}");
    assert!(e.to_string().contains("legacy"), "{e}");
}

// --------------------------------------------------------------------------
// Sweeps: truncate / corrupt bytes everywhere; must never panic.
// --------------------------------------------------------------------------

/// Open, then resolve every payload; report whether everything succeeded.
fn exercise(bytes: Vec<u8>) -> bool {
    match Archive::from_bytes("sweep.pt2", bytes) {
        Ok(a) => {
            let mut ok = true;
            let names: Vec<String> = a.weight_names().map(str::to_string).collect();
            for n in names {
                if let Ok(t) = a.weight(&n) {
                    let _ = t.contiguous_bytes();
                } else {
                    ok = false;
                }
            }
            ok
        }
        Err(e) => {
            assert!(e.to_string().starts_with("sweep.pt2: "), "{e}");
            false
        }
    }
}

#[test]
fn truncation_at_every_offset_never_panics() {
    for name in ["mlp.pt2", "cond.pt2"] {
        let full = std::fs::read(fixture(name)).unwrap();
        let n = full.len();
        // Every offset near the end (directory area), a stride elsewhere.
        let offsets = (0..n).filter(|&i| i + 2048 >= n || i % 13 == 0 || i < 64);
        for cut in offsets {
            let ok = exercise(full[..cut].to_vec());
            assert!(!ok, "{name} truncated to {cut} bytes opened successfully");
        }
        assert!(exercise(full));
    }
}

#[test]
fn byte_corruption_never_panics() {
    let full = std::fs::read(fixture("mlp.pt2")).unwrap();
    let a = Archive::open(fixture("mlp.pt2")).unwrap();
    // The directory/EOCD area, and each local header + the first bytes of data.
    let mut offsets: Vec<usize> = (full.len().saturating_sub(1200)..full.len()).collect();
    for e in a.entries() {
        let h = e.header_offset as usize;
        offsets.extend(h..(e.data_offset as usize + 8).min(full.len()));
    }
    for &i in &offsets {
        for v in [0x00u8, 0xFF, 0x7F, full[i] ^ 0x01] {
            let mut bytes = full.clone();
            bytes[i] = v;
            exercise(bytes);
        }
    }
    // Whole 8-byte fields set to extreme values.
    for &i in offsets.iter().step_by(3) {
        for v in [u64::MAX, 0, 1 << 63, u32::MAX as u64] {
            let mut bytes = full.clone();
            let end = (i + 8).min(bytes.len());
            bytes[i..end].copy_from_slice(&v.to_le_bytes()[..end - i]);
            exercise(bytes);
        }
    }
}

#[test]
fn zip64_corruption_never_panics() {
    let bytes = write_zip(&mlp_members(), ZipOptions { zip64: true, align: true });
    assert!(exercise(bytes.clone()));
    let n = bytes.len();
    for cut in 0..n {
        if cut + 3000 >= n || cut % 17 == 0 {
            assert!(!exercise(bytes[..cut].to_vec()));
        }
    }
    for i in n.saturating_sub(3000)..n {
        for v in [0x00u8, 0xFF] {
            let mut b = bytes.clone();
            b[i] = v;
            exercise(b);
        }
    }
}
