//! Noting a step only when someone watches, for the kinds that use the generic watcher
//! (`systems::trace::Watch`): the 2d20 kinds, the Nephilim duel and the Trinités duel and
//! skirmish.

use crate::systems::trace::Watch;

/// `w.see(|| Step::...)`: the step is built and noted only when `W::ON`, so in the batch
/// run ([`Quiet`](crate::systems::trace::Quiet)) the whole call is a constant-false branch
/// the compiler removes, as `if W::ON { w.note(..) }` would be.
pub trait See<S>: Watch<S> {
    #[inline(always)]
    fn see(&mut self, step: impl FnOnce() -> S) {
        if Self::ON {
            self.note(step());
        }
    }
}

impl<S, W: Watch<S> + ?Sized> See<S> for W {}
