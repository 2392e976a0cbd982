//! Shared helpers for the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")
}

pub fn fixture(name: &str) -> PathBuf {
    fixtures_dir().join(name)
}

/// One member of a synthetic archive.
pub struct Member {
    pub name: String,
    pub data: Vec<u8>,
    /// Compression method written into the headers (the data is never compressed).
    pub method: u16,
}

impl Member {
    pub fn new(name: impl Into<String>, data: impl Into<Vec<u8>>) -> Self {
        Member { name: name.into(), data: data.into(), method: 0 }
    }
}

/// Options for [`write_zip`].
#[derive(Default, Clone, Copy)]
pub struct ZipOptions {
    /// Put sizes/offsets in ZIP64 extra fields of the central directory
    /// (32-bit fields saturated) and write a ZIP64 end-of-central-directory.
    pub zip64: bool,
    /// Align entry data to 64 bytes (padding in an extra field), like torch.
    pub align: bool,
}

/// A minimal STORED zip writer (CRCs are left at 0: the reader does not check them).
pub fn write_zip(members: &[Member], opts: ZipOptions) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for m in members {
        let offset = out.len() as u64;
        let name = m.name.as_bytes();
        let mut extra = Vec::new();
        if opts.align {
            let unpadded = out.len() + 30 + name.len() + 4;
            let pad = (64 - unpadded % 64) % 64;
            extra.extend_from_slice(&0x4246u16.to_le_bytes());
            extra.extend_from_slice(&(pad as u16).to_le_bytes());
            extra.resize(4 + pad, b'Z');
        }
        // local header
        out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        out.extend_from_slice(&20u16.to_le_bytes()); // version
        out.extend_from_slice(&0u16.to_le_bytes()); // flags
        out.extend_from_slice(&m.method.to_le_bytes());
        out.extend_from_slice(&[0; 4]); // time, date
        out.extend_from_slice(&0u32.to_le_bytes()); // crc
        out.extend_from_slice(&(m.data.len() as u32).to_le_bytes());
        out.extend_from_slice(&(m.data.len() as u32).to_le_bytes());
        out.extend_from_slice(&(name.len() as u16).to_le_bytes());
        out.extend_from_slice(&(extra.len() as u16).to_le_bytes());
        out.extend_from_slice(name);
        out.extend_from_slice(&extra);
        out.extend_from_slice(&m.data);

        // central header
        let mut cextra = Vec::new();
        let (size32, off32) = if opts.zip64 {
            cextra.extend_from_slice(&1u16.to_le_bytes());
            cextra.extend_from_slice(&24u16.to_le_bytes());
            cextra.extend_from_slice(&(m.data.len() as u64).to_le_bytes()); // uncompressed
            cextra.extend_from_slice(&(m.data.len() as u64).to_le_bytes()); // compressed
            cextra.extend_from_slice(&offset.to_le_bytes());
            (0xFFFF_FFFFu32, 0xFFFF_FFFFu32)
        } else {
            (m.data.len() as u32, offset as u32)
        };
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&45u16.to_le_bytes());
        central.extend_from_slice(&45u16.to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes());
        central.extend_from_slice(&m.method.to_le_bytes());
        central.extend_from_slice(&[0; 4]);
        central.extend_from_slice(&0u32.to_le_bytes());
        central.extend_from_slice(&size32.to_le_bytes());
        central.extend_from_slice(&size32.to_le_bytes());
        central.extend_from_slice(&(name.len() as u16).to_le_bytes());
        central.extend_from_slice(&(cextra.len() as u16).to_le_bytes());
        central.extend_from_slice(&0u16.to_le_bytes()); // comment
        central.extend_from_slice(&0u16.to_le_bytes()); // disk
        central.extend_from_slice(&0u16.to_le_bytes()); // internal attrs
        central.extend_from_slice(&0u32.to_le_bytes()); // external attrs
        central.extend_from_slice(&off32.to_le_bytes());
        central.extend_from_slice(name);
        central.extend_from_slice(&cextra);
    }
    let cd_offset = out.len() as u64;
    let cd_size = central.len() as u64;
    out.extend_from_slice(&central);
    let n = members.len() as u64;
    if opts.zip64 {
        let rec_offset = out.len() as u64;
        out.extend_from_slice(&0x0606_4b50u32.to_le_bytes());
        out.extend_from_slice(&44u64.to_le_bytes());
        out.extend_from_slice(&45u16.to_le_bytes());
        out.extend_from_slice(&45u16.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(&cd_size.to_le_bytes());
        out.extend_from_slice(&cd_offset.to_le_bytes());
        out.extend_from_slice(&0x0706_4b50u32.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&rec_offset.to_le_bytes());
        out.extend_from_slice(&1u32.to_le_bytes());
    }
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    let n16 = if opts.zip64 { 0xFFFF } else { n as u16 };
    out.extend_from_slice(&n16.to_le_bytes());
    out.extend_from_slice(&n16.to_le_bytes());
    let (s32, o32) = if opts.zip64 { (0xFFFF_FFFFu32, 0xFFFF_FFFFu32) } else { (cd_size as u32, cd_offset as u32) };
    out.extend_from_slice(&s32.to_le_bytes());
    out.extend_from_slice(&o32.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

/// All members of a fixture archive (via the reader itself).
pub fn members_of(archive: &aten2onnx_pt2::Archive) -> Vec<Member> {
    archive
        .entries()
        .iter()
        .map(|e| {
            let start = e.data_offset as usize;
            Member::new(e.name.clone(), archive.bytes()[start..start + e.size as usize].to_vec())
        })
        .collect()
}
