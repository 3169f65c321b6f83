//! Reading what a run wrote: a JSON file, the SHA-256 of some bytes as provenance records it.

use std::path::Path;

use serde_json::Value;

/// The JSON file at `path`.
pub fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The lowercase hex SHA-256 of `bytes`.
pub fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
