//! Sets of combatants as bit masks (bit `g` = combatant `g`), shared by the fights of
//! every system: a side, the allies or enemies of one, who still stands.

/// The set bits of a mask, lowest first: the same order as `0..n` over the combatants.
#[inline(always)]
pub fn bits(mut m: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let g = m.trailing_zeros() as usize;
        m &= m - 1;
        Some(g)
    })
}

/// The mask of the indices below `n` for which `p` holds.
pub fn of(n: usize, mut p: impl FnMut(usize) -> bool) -> u32 {
    (0..n).filter(|&g| p(g)).fold(0, |m, g| m | 1 << g)
}

#[cfg(test)]
mod tests {
    #[test]
    fn bits_are_the_set_indices_in_order() {
        assert_eq!(super::bits(0).count(), 0);
        assert_eq!(super::bits(0b1011_0001).collect::<Vec<_>>(), [0, 4, 5, 7]);
        assert_eq!(super::bits(1 << 31).collect::<Vec<_>>(), [31]);
        assert_eq!(super::of(8, |g| g % 3 == 0), 0b0100_1001);
        assert_eq!(super::of(0, |_| true), 0);
    }
}
