//! The twelve elements and their coefficient table (C-ELEM).

/// Element names as a scenario file writes them (French, without accents), in the
/// rulebook's order. Accented spellings and English names are accepted too.
pub const ELEMENT_NAMES: [&str; 12] = [
    "feu", "air", "eau", "terre", "glace", "metal", "elec", "sang", "poison", "plante", "dark",
    "light",
];

/// Coefficient of an attacking element (column) on a target element (row), C-ELEM.
/// Copied from cosmos-current.fr.txt, "Forces et faiblesses élémentaires":
/// `ELEMENT_TABLE[target][attacker]`, both in [`ELEMENT_NAMES`] order.
pub const ELEMENT_TABLE: [[f64; 12]; 12] = [
    // Feu Air  Eau   Terre Glace Métal Élec  Sang  Poison Plante Dark Light
    [
        1.0, 1.5, 2.0, 1.25, 0.0, 0.5, 1.0, 1.25, 1.0, 0.0, 0.75, 1.0,
    ], // Feu
    [0.5, 1.0, 0.5, 1.0, 1.25, 1.0, 1.0, 1.0, 1.0, 0.5, 1.0, 1.0], // Air
    [0.0, 1.5, 1.0, 1.5, 1.75, 0.5, 2.0, 1.0, 1.25, 1.5, 1.0, 1.0], // Eau
    [
        0.75, 0.0, 0.75, 1.0, 1.0, 1.25, 0.75, 0.75, 1.0, 1.25, 1.0, 0.75,
    ], // Terre
    [
        2.0, 0.75, 0.25, 1.0, 1.0, 1.0, 1.0, 0.25, 0.0, 0.5, 1.0, 1.0,
    ], // Glace
    [
        1.5, 0.5, 1.5, 0.75, 1.0, 1.0, 2.0, 0.75, 0.0, 0.0, 1.0, 0.75,
    ], // Métal
    [1.0, 1.0, 1.5, 1.0, 1.0, 0.5, 1.0, 1.0, 1.0, 0.5, 1.0, 1.0],  // Élec
    [
        0.75, 1.0, 1.0, 1.25, 1.75, 1.25, 2.0, 1.0, 1.25, 1.0, 1.0, 1.0,
    ], // Sang
    [1.0, 1.0, 1.0, 1.0, 2.0, 1.0, 1.0, 0.75, 1.0, 1.0, 1.0, 1.0], // Poison
    [
        2.0, 1.5, 0.5, 1.25, 1.5, 2.0, 1.5, 1.0, 1.5, 1.0, 1.25, 0.75,
    ], // Plante
    [
        1.25, 1.0, 1.0, 1.0, 1.0, 1.0, 1.25, 1.0, 1.0, 0.75, 1.0, 2.0,
    ], // Dark
    [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.25, 2.0, 1.0], // Light
];

/// The other spellings [`Element::parse`] accepts (accented French, English), with the
/// element each one names: listed in the error for an unknown element and in the guide.
pub const ELEMENT_ALIASES: [(&str, &str); 17] = [
    ("fire", "feu"),
    ("wind", "air"),
    ("water", "eau"),
    ("earth", "terre"),
    ("ice", "glace"),
    ("métal", "metal"),
    ("élec", "elec"),
    ("electricite", "elec"),
    ("électricité", "elec"),
    ("electricity", "elec"),
    ("lightning", "elec"),
    ("blood", "sang"),
    ("plant", "plante"),
    ("tenebres", "dark"),
    ("ténèbres", "dark"),
    ("lumiere", "light"),
    ("lumière", "light"),
];

/// The allowed values of an element key, for an error message: the names, then the
/// aliases ("fire = feu").
pub fn allowed_elements(lang: crate::lang::Lang) -> String {
    let aliases: Vec<String> = ELEMENT_ALIASES
        .iter()
        .map(|(a, e)| format!("{a} = {e}"))
        .collect();
    tr!(
        lang,
        "combat.check.element_allowed",
        names = ELEMENT_NAMES.join(", "),
        aliases = aliases.join(", ")
    )
}

/// An element, as its index in [`ELEMENT_NAMES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Element(pub u8);

impl Element {
    /// Reads a name: French with or without accents, or English.
    pub fn parse(name: &str) -> Option<Element> {
        let n = name.trim().to_lowercase();
        let i = match n.as_str() {
            "feu" | "fire" => 0,
            "air" | "wind" => 1,
            "eau" | "water" => 2,
            "terre" | "earth" => 3,
            "glace" | "ice" => 4,
            "metal" | "métal" => 5,
            "elec" | "élec" | "electricite" | "électricité" | "electricity" | "lightning" => 6,
            "sang" | "blood" => 7,
            "poison" => 8,
            "plante" | "plant" => 9,
            "dark" | "tenebres" | "ténèbres" => 10,
            "light" | "lumiere" | "lumière" => 11,
            _ => return None,
        };
        Some(Element(i))
    }

    pub fn name(self) -> &'static str {
        ELEMENT_NAMES[self.0 as usize]
    }
}

/// How a two-element attack combines its coefficients (C-ELEM, option `dual_element`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DualElement {
    Product,
    Max,
    Mean,
}

/// The coefficient of an attack with `elements` on a target of element `target`
/// (no element on either side: 1).
pub fn coefficient(elements: &[Element], target: Option<Element>, dual: DualElement) -> f64 {
    let Some(t) = target else { return 1.0 };
    let c = |e: &Element| ELEMENT_TABLE[t.0 as usize][e.0 as usize];
    match elements {
        [] => 1.0,
        [a] => c(a),
        [a, b, ..] => match dual {
            DualElement::Product => c(a) * c(b),
            DualElement::Max => c(a).max(c(b)),
            DualElement::Mean => (c(a) + c(b)) / 2.0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_aliases() {
        for (i, n) in ELEMENT_NAMES.iter().enumerate() {
            assert_eq!(Element::parse(n), Some(Element(i as u8)));
        }
        assert_eq!(Element::parse("Métal"), Some(Element(5)));
        assert_eq!(Element::parse("fire"), Some(Element(0)));
        // Every alias the error lists is one the parser takes, for the element it names.
        for (a, e) in ELEMENT_ALIASES {
            assert_eq!(Element::parse(a), Element::parse(e), "{a}");
            assert!(Element::parse(a).is_some(), "{a}");
        }
        assert_eq!(Element::parse("wood"), None);
    }

    #[test]
    fn water_on_fire_and_dual_rules() {
        let (feu, eau, elec) = (Element(0), Element(2), Element(6));
        assert_eq!(coefficient(&[eau], Some(feu), DualElement::Product), 2.0);
        // Élec on Eau 2, Feu on Eau 0.
        assert_eq!(
            coefficient(&[elec, feu], Some(eau), DualElement::Product),
            0.0
        );
        assert_eq!(coefficient(&[elec, feu], Some(eau), DualElement::Max), 2.0);
        assert_eq!(coefficient(&[elec, feu], Some(eau), DualElement::Mean), 1.0);
        assert_eq!(coefficient(&[elec], None, DualElement::Mean), 1.0);
    }
}
