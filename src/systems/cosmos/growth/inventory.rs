//! Inventory slots and overload (C-INV). Source: cosmos-current.fr.txt, "Règle de gestion
//! d'inventaire": slots = 40 x Force/100 with Force rounded down to the ten.

/// Slots a character carries without malus: 4 x floor(Force / 10) (C-INV).
pub fn capacity(force: i32) -> i32 {
    4 * (force.max(0) / 10)
}

/// Slots over capacity (0 when within it).
pub fn slots_over(force: i32, load: i32) -> i32 {
    (load - capacity(force)).max(0)
}

/// Agilité malus of an overload: -5 per slot over (C-INV), in percentage points
/// (C-TEST-1).
pub fn agility_malus(force: i32, load: i32) -> f64 {
    -5.0 * slots_over(force, load) as f64
}

/// Whether the move is halved (C-INV: any overload halves the move, floored).
pub fn overloaded(force: i32, load: i32) -> bool {
    slots_over(force, load) > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_by_force() {
        // The rulebook's example: Force 52 counts as 50 -> 20 slots.
        assert_eq!(capacity(52), 20);
        assert_eq!(capacity(59), 20);
        assert_eq!(capacity(80), 32);
        assert_eq!(slots_over(52, 23), 3);
        assert_eq!(agility_malus(52, 23), -15.0);
        assert!(!overloaded(52, 20));
    }
}
