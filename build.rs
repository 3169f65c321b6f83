//! The build identity shard parts record (`COSMOSIM_BUILD_ID`): parts made by another
//! build may hold accumulators of other simulations under the same names, so `merge`
//! refuses them. The identity is a hash of what decides the results: every `src/**/*.rs`
//! (path and bytes, in sorted order), `Cargo.lock`, and the compiler's version and target
//! (engine calls are keyed by `std::any::type_name`, which only the same compiler keeps
//! stable). Two checkouts of one commit built by one toolchain get the same identity,
//! whatever the folder or the machine.
//!
//! The hash is FNV-1a over 128 bits: it tells builds apart, it does not authenticate them
//! (a part is data the merge validates, never code it trusts).

use std::path::{Path, PathBuf};

struct Fnv(u128);

impl Fnv {
    fn eat(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= *b as u128;
            self.0 = self
                .0
                .wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013B);
        }
    }

    /// A length-prefixed field, so ("ab", "c") and ("a", "bc") differ.
    fn field(&mut self, bytes: &[u8]) {
        self.eat(&(bytes.len() as u64).to_le_bytes());
        self.eat(bytes);
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        match e.file_type() {
            Ok(t) if t.is_dir() => rust_files(&p, out),
            Ok(t) if t.is_file() && p.extension().is_some_and(|x| x == "rs") => out.push(p),
            _ => {}
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=Cargo.lock");
    println!("cargo:rerun-if-changed=build.rs");
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    let mut h = Fnv(0x6c62_272e_07bb_0142_62b8_2175_6295_c58d);
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    files.sort();
    files.push(root.join("Cargo.lock"));
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap_or(f);
        h.field(rel.to_string_lossy().replace('\\', "/").as_bytes());
        h.field(&std::fs::read(f).unwrap_or_default());
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = std::process::Command::new(rustc)
        .arg("-V")
        .output()
        .map(|o| o.stdout)
        .unwrap_or_default();
    h.field(&version);
    h.field(std::env::var("TARGET").unwrap_or_default().as_bytes());
    println!("cargo:rustc-env=COSMOSIM_BUILD_ID={:032x}", h.0);
}
