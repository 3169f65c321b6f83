//! A combatant's elemental affinity beyond one element (C-ELEM): two elements, and
//! coefficient overrides ("Certaines caractéristiques peuvent également altérer les
//! coefficients par défaut", cosmos-current.fr.txt, "Forces et faiblesses élémentaires").
//!
//! Readings (docs/rules.md): the book allows two elements on a skill ("maximum 2") and is
//! silent on combatants; a combatant with two elements takes, for each attacking element,
//! the two table cells combined like a two-element attack (option `dual_element`). An
//! override gives the coefficient of one attacking element on this combatant, replacing
//! what its element(s) would give (a trait such as "immune to fire": `feu = 0`; negative
//! heals). An attack with no element stays at 1; a two-element attack combines the two
//! per-element coefficients as before.

use std::collections::BTreeMap;

use crate::error::UserError;
use crate::scenario::ScenarioFile;

use super::element::{DualElement, Element};

/// Most a coefficient override may be, either sign.
pub const COEFFICIENT_MAX: f64 = 10.0;

/// The affinity keys of one combatant beyond `element`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Affinity {
    /// The second element (`elements = [a, b]`).
    pub second: Option<Element>,
    /// Per attacking element (in [`super::element::ELEMENT_NAMES`] order): the coefficient on this combatant.
    pub overrides: [Option<f64>; 12],
}

impl Affinity {
    pub fn is_plain(&self) -> bool {
        *self == Affinity::default()
    }
}

fn combine(a: f64, b: f64, dual: DualElement) -> f64 {
    match dual {
        DualElement::Product => a * b,
        DualElement::Max => a.max(b),
        DualElement::Mean => (a + b) / 2.0,
    }
}

/// Coefficient of attacking element `e` on a combatant of element(s) `first`/`aff`.
fn cell(
    e: Element,
    first: Option<Element>,
    aff: &Affinity,
    dual: DualElement,
    table: &Table,
) -> f64 {
    if let Some(c) = aff.overrides[e.0 as usize] {
        return c;
    }
    let row = |t: Element| table[t.0 as usize][e.0 as usize];
    match (first, aff.second) {
        (Some(a), Some(b)) => combine(row(a), row(b), dual),
        (Some(a), None) => row(a),
        _ => 1.0,
    }
}

/// An element coefficient table, `[target][attacker]` (the book's or `element_cells`').
pub type Table = [[f64; 12]; 12];

/// The coefficient of an attack with `elements` on a combatant (C-ELEM) under the book's
/// table. With one element and no override it is [`super::element::coefficient`].
#[cfg(test)]
pub fn coefficient_on(
    elements: &[Element],
    first: Option<Element>,
    aff: &Affinity,
    dual: DualElement,
) -> f64 {
    coefficient_in(elements, first, aff, dual, &super::element::ELEMENT_TABLE)
}

/// As [`coefficient_on`] under the table in force (parameter set `element_cells`).
pub fn coefficient_in(
    elements: &[Element],
    first: Option<Element>,
    aff: &Affinity,
    dual: DualElement,
    table: &Table,
) -> f64 {
    let c = |e: &Element| cell(*e, first, aff, dual, table);
    match elements {
        [] => 1.0,
        [a] => c(a),
        [a, b, ..] => combine(c(a), c(b), dual),
    }
}

/// Validates `element`/`elements` and `element_coefficients` of combatant `name`: its
/// first element and the rest of its affinity.
pub fn validate(
    file: &ScenarioFile,
    name: &str,
    element: &Option<String>,
    elements: &Option<Vec<String>>,
    overrides: &Option<BTreeMap<String, f64>>,
) -> Result<(Option<Element>, Affinity), UserError> {
    let err = |k: &[&str], msg: &str, allowed: &str| {
        let mut path = vec!["combatants", name];
        path.extend_from_slice(k);
        let shown = match k {
            [a, i] if a == &"elements" => format!("combatants.{name}.elements[{i}]"),
            _ => path.join("."),
        };
        file.error_at(&path, &shown, msg, allowed)
    };
    let parse = |k: &[&str], n: &str| {
        Element::parse(n).ok_or_else(|| {
            err(
                k,
                &tr!(file.lang, "combat.check.unknown_element", name = n),
                &super::element::allowed_elements(file.lang),
            )
        })
    };
    let mut aff = Affinity::default();
    let first = match (element, elements) {
        (Some(_), Some(_)) => {
            return Err(err(
                &["elements"],
                tr!(file.lang, "combat.check.element_both"),
                tr!(file.lang, "combat.check.element_one_of2"),
            ))
        }
        (Some(e), None) => Some(parse(&["element"], e)?),
        (None, Some(list)) => {
            if !(1..=2).contains(&list.len()) {
                return Err(err(
                    &["elements"],
                    &tr!(file.lang, "combat.check.n_elements", n = list.len()),
                    tr!(file.lang, "combat.check.two_elements_allowed"),
                ));
            }
            let a = parse(&["elements", "0"], &list[0])?;
            if let Some(b) = list.get(1) {
                let b = parse(&["elements", "1"], b)?;
                if b == a {
                    return Err(err(
                        &["elements", "1"],
                        &tr!(file.lang, "combat.check.listed_twice", name = list[1]),
                        tr!(file.lang, "combat.check.two_different"),
                    ));
                }
                aff.second = Some(b);
            }
            Some(a)
        }
        (None, None) => None,
    };
    for (k, &c) in overrides.iter().flatten() {
        let e = parse(&["element_coefficients", k], k)?;
        if !(c.is_finite() && c.abs() <= COEFFICIENT_MAX) {
            return Err(err(
                &["element_coefficients", k],
                &tr!(file.lang, "combat.check.out_of_range", value = c),
                &tr!(
                    file.lang,
                    "combat.check.coefficient_allowed",
                    max = COEFFICIENT_MAX
                ),
            ));
        }
        aff.overrides[e.0 as usize] = Some(c);
    }
    Ok((first, aff))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::cosmos::combat::element::coefficient;

    #[test]
    fn plain_affinity_is_the_table() {
        let all: Vec<Element> = (0..12).map(Element).collect();
        for dual in [DualElement::Product, DualElement::Max, DualElement::Mean] {
            for t in [None, Some(Element(0)), Some(Element(10))] {
                for a in &all {
                    for b in &all {
                        let v = [*a, *b];
                        let plain = Affinity::default();
                        assert_eq!(
                            coefficient_on(&v, t, &plain, dual),
                            coefficient(&v, t, dual)
                        );
                        assert_eq!(
                            coefficient_on(&v[..1], t, &plain, dual),
                            coefficient(&v[..1], t, dual)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn two_elements_and_overrides() {
        let (feu, eau, terre, elec) = (Element(0), Element(2), Element(3), Element(6));
        // Eau on Feu 2, Eau on Terre 0.75 (rows Feu, Terre; column Eau).
        let two = Affinity {
            second: Some(terre),
            ..Default::default()
        };
        assert_eq!(
            coefficient_on(&[eau], Some(feu), &two, DualElement::Product),
            1.5
        );
        assert_eq!(
            coefficient_on(&[eau], Some(feu), &two, DualElement::Max),
            2.0
        );
        assert_eq!(
            coefficient_on(&[eau], Some(feu), &two, DualElement::Mean),
            1.375
        );
        // An override replaces the cell whatever the elements; other elements keep theirs.
        let mut o = two;
        o.overrides[eau.0 as usize] = Some(-0.5);
        assert_eq!(
            coefficient_on(&[eau], Some(feu), &o, DualElement::Product),
            -0.5
        );
        // Élec on Feu 1, on Terre 0.75.
        assert_eq!(
            coefficient_on(&[elec], Some(feu), &o, DualElement::Product),
            0.75
        );
        // A combatant with no element but an override; an attack with no element: 1.
        let mut n = Affinity::default();
        n.overrides[feu.0 as usize] = Some(0.0);
        assert_eq!(coefficient_on(&[feu], None, &n, DualElement::Product), 0.0);
        assert_eq!(
            coefficient_on(&[feu, eau], None, &n, DualElement::Mean),
            0.5
        );
        assert_eq!(coefficient_on(&[], None, &n, DualElement::Mean), 1.0);
    }
}
