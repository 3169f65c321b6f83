//! A wound on a fighter's life track, written once for the duel and the skirmish: the boxes
//! it ticks (T-LIFE) and la douleur it brings (T-COMBAT). What follows a fall differs by
//! fight and stays with each.

use super::track::{shift, ticked_after, Zone};
use super::words::LifeStep;

/// What a wound changes of a fighter: (boxes ticked, initiative score, initiative zone,
/// boxes a line); each fight's state lends its own.
pub type Track<'a> = (&'a mut i64, &'a mut i64, &'a mut Zone, i64);

/// Ticks `damage` (> 0) boxes of fighter `who`'s track (a blessure non létale spares the
/// last box of the Inconscient line), moves its initiative die for la douleur, and returns
/// the boxes ticked before and after. `note` hears the Ticks step, then the Pain step when
/// there is one; the batch run's `note` does nothing and compiles away.
#[inline]
pub fn tick(
    (ticked, init, zone, line): Track<'_>,
    who: u8,
    damage: i64,
    non_lethal: bool,
    pain: i64,
    mut note: impl FnMut(LifeStep),
) -> (i64, i64) {
    let before = *ticked;
    let after = ticked_after(before, damage, line, non_lethal);
    *ticked = after;
    note(LifeStep::Ticks {
        who,
        before,
        after,
        line,
    });
    // La douleur (T-COMBAT): -3 initiative (`trinites_pain_initiative`) whenever a
    // wound ticks boxes of the blessé line.
    if before < 2 * line && after > line {
        shift(init, zone, -pain);
        note(LifeStep::Pain {
            who,
            by: pain,
            init: *init,
            zone: *zone,
        });
    }
    (before, after)
}
