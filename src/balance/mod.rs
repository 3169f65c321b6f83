//! Balance checks for CI, below the command layer: figure lookup (`figures`), designer's
//! expectations decided exactly or by a sequential Monte Carlo rule (`expect`), and what
//! moved between two output folders (`compare`). The command layer computes the outputs
//! and publishes the files; this module only reads outputs and writes text.

use crate::lang::Lang;

pub mod args;
pub mod compare;
pub mod expect;
pub mod figures;
pub mod optimise;
pub mod stalemate;
pub mod sweep;
pub mod tune;
pub mod variants;

/// A number already written with a dot (`decide::num`, `{:.2e}`) in the language's decimal
/// mark: pages only; CSV and JUnit files keep the dot.
pub fn dec(s: &str, lang: Lang) -> String {
    match lang {
        crate::lang::Lang::En => s.to_string(),
        crate::lang::Lang::Fr => s.replace('.', ","),
    }
}
