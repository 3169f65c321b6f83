//! Accumulators made only of `u64` counts, declared once with their merge (the 2d20, the
//! Nephilim duel and the tables' tallies): a field added to the struct is merged with it,
//! so a count cannot be forgotten in `merge`.

/// Declares a struct whose every field is a `u64` count and its `Merge`, which adds each
/// field (integer sums: merging is exact). Write its derives and field docs as usual.
macro_rules! counts_acc {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($(#[$fmeta:meta])* $fvis:vis $field:ident : u64),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $($(#[$fmeta])* $fvis $field: u64),*
        }

        impl crate::engine::Merge for $name {
            fn merge(&mut self, o: Self) {
                $(self.$field += o.$field;)*
            }
        }
    };
}

pub(crate) use counts_acc;

/// Mean and 95% interval (Student t) of `n` whole values from their sum and sum of squares.
pub fn mean_ci(sum: u64, sq: u64, n: u64) -> (f64, f64, f64) {
    let nf = n as f64;
    let m = sum as f64 / nf;
    let var = if n > 1 {
        ((sq as f64 - nf * m * m) / (nf - 1.0)).max(0.0)
    } else {
        0.0
    };
    let (lo, hi) = crate::stats::t_interval(m, (var / nf).sqrt(), n);
    (m, lo, hi)
}
