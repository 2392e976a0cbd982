//! Serde helpers for the quirks of torch's JSON encoding.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

/// Floats: torch writes non-finite values as the strings `"Infinity"`,
/// `"-Infinity"` and `"NaN"` (its encoder runs with `allow_nan=False`).
/// Integers are accepted too.
pub(crate) fn f64<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    d.deserialize_any(F64Visitor)
}

struct F64Visitor;

impl<'de> Visitor<'de> for F64Visitor {
    type Value = f64;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(r#"a number or one of "Infinity", "-Infinity", "NaN""#)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f64, E> {
        Ok(v)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f64, E> {
        Ok(v as f64)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f64, E> {
        Ok(v as f64)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
        match v {
            "Infinity" | "inf" => Ok(f64::INFINITY),
            "-Infinity" | "-inf" => Ok(f64::NEG_INFINITY),
            "NaN" | "nan" => Ok(f64::NAN),
            _ => Err(E::invalid_value(de::Unexpected::Str(v), &self)),
        }
    }
}

#[derive(Clone, Copy)]
struct F64Seed;

impl<'de> de::DeserializeSeed<'de> for F64Seed {
    type Value = f64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<f64, D::Error> {
        f64(d)
    }
}

#[derive(Clone, Copy)]
struct VecF64Seed;

impl<'de> de::DeserializeSeed<'de> for VecF64Seed {
    type Value = Vec<f64>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<f64>, D::Error> {
        vec_f64(d)
    }
}

struct SeqVisitor<S>(S);

impl<'de, S> Visitor<'de> for SeqVisitor<S>
where
    S: de::DeserializeSeed<'de> + Copy,
{
    type Value = Vec<S::Value>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(v) = seq.next_element_seed(self.0)? {
            out.push(v);
        }
        Ok(out)
    }
}

/// `list[float]` with torch's non-finite encoding.
pub(crate) fn vec_f64<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
    d.deserialize_seq(SeqVisitor(F64Seed))
}

/// `list[list[float]]` with torch's non-finite encoding.
pub(crate) fn vec_vec_f64<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<f64>>, D::Error> {
    d.deserialize_seq(SeqVisitor(VecF64Seed))
}

/// A JSON object deserialized into a `Vec` of pairs, keeping the file's order.
pub(crate) fn ordered_map<'de, D, V>(d: D) -> Result<Vec<(String, V)>, D::Error>
where
    D: Deserializer<'de>,
    V: de::Deserialize<'de>,
{
    struct MapVisitor<V>(std::marker::PhantomData<V>);
    impl<'de, V: de::Deserialize<'de>> Visitor<'de> for MapVisitor<V> {
        type Value = Vec<(String, V)>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0).min(4096));
            while let Some((k, v)) = map.next_entry::<String, V>()? {
                out.push((k, v));
            }
            Ok(out)
        }
    }
    d.deserialize_map(MapVisitor(std::marker::PhantomData))
}

/// The node metadata the importer reads, by key; the others (`nn_module_stack`,
/// `source_fn_stack`, `torch_fn`, `from_node`, ...: half of a transformer's
/// `model.json`) are skipped without being copied.
pub(crate) const KEPT_NODE_METADATA: &[&str] = &["stack_trace"];

/// A node's `metadata` object, keeping only [`KEPT_NODE_METADATA`].
pub(crate) fn kept_node_metadata<'de, D: Deserializer<'de>>(d: D) -> Result<crate::schema::Map<String>, D::Error> {
    struct KeptVisitor;
    impl<'de> Visitor<'de> for KeptVisitor {
        type Value = crate::schema::Map<String>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an object of strings")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = crate::schema::Map::new();
            while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                if KEPT_NODE_METADATA.contains(&key.as_ref()) {
                    out.insert(key.into_owned(), map.next_value::<String>()?);
                } else {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
            Ok(out)
        }
    }
    d.deserialize_map(KeptVisitor)
}
