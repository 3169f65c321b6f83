//! Serde for fixed-size arrays of any length (serde derives them only up to 32 elements):
//! `#[serde(with = "crate::engine::array")]` on an accumulator's `[T; N]` field.

use serde::{de::DeserializeOwned, Deserialize, Deserializer, Serialize, Serializer};

pub fn serialize<T: Serialize, S: Serializer, const N: usize>(
    a: &[T; N],
    s: S,
) -> Result<S::Ok, S::Error> {
    a.as_slice().serialize(s)
}

pub fn deserialize<'de, T: DeserializeOwned, D: Deserializer<'de>, const N: usize>(
    d: D,
) -> Result<[T; N], D::Error> {
    let v = Vec::<T>::deserialize(d)?;
    v.try_into().map_err(|v: Vec<T>| {
        // serde's own words for a fixed-size array, which the messages word in the
        // file's language (`scenario::message`).
        serde::de::Error::invalid_length(v.len(), &format!("an array of length {N}").as_str())
    })
}
