//! Element affinity: two elements, coefficient overrides (C-ELEM).

use super::*;

#[test]
fn two_element_combatants_and_coefficient_overrides_scale_the_damage() {
    // A 10-damage Eau attack that lands unless it critically fails (threshold 200; the
    // foe never defends; crit and super multipliers 1), one round. On a foe of elements
    // Feu and Terre (Eau on Feu 2, on Terre 0.75): 15 per hit with `dual_element =
    // product`, 20 with `max`; an override `eau = 0.5` gives 5 whatever the elements;
    // `eau = 0` nothing.
    let base = scenario(
        "[attacks.wave]\nstat = \"force\"\ndamage = \"10\"\nelement = \"eau\"\nthreshold = 200\n",
        "attacks = [\"wave\"]",
        "hp = 100000\nelements = [\"feu\", \"terre\"]\nattacks = [\"tickle\"]\n[combatants.foe.policy]\ndefence = \"none\"",
        "[combat]\nmax_rounds = 1",
    );
    let over = base.replace(
        "attacks = [\"tickle\"]\n[combatants.foe.policy]",
        "element_coefficients = { eau = 0.5, feu = 3 }\nattacks = [\"tickle\"]\n[combatants.foe.policy]",
    );
    let zero = over.replace("eau = 0.5", "eau = 0");
    for (text, dual, per_hit) in [
        (&base, "product", 15),
        (&base, "max", 20),
        (&base, "mean", 13),
        (&over, "product", 5),
        (&zero, "max", 0),
    ] {
        let opt = format!("dual_element={dual}");
        let (_, acc) = run_opts(
            text,
            N,
            &[&opt, "crit_damage_mult=1", "super_damage_mult=1"],
        );
        let dealt = acc.fighters[HERO].dealt.sum;
        if per_hit == 0 {
            assert_eq!(dealt, 0);
            continue;
        }
        assert_eq!(dealt % per_hit, 0, "{dual} {per_hit}: {dealt}");
        agrees(dealt / per_hit, N, p_hit(200.0));
    }
}

#[test]
fn element_affinity_keys_are_validated() {
    let base = scenario("", "attacks = [\"tickle\"]", HARMLESS, "");
    let with = |keys: &str| {
        base.replace(
            "hp = 1000\nattacks = [\"tickle\"]",
            &format!("hp = 1000\n{keys}\nattacks = [\"tickle\"]"),
        )
    };
    for (keys, want) in [
        (
            "element = \"feu\"\nelements = [\"eau\"]",
            "key `combatants.foe.elements`: both `element` and `elements` are given",
        ),
        (
            "elements = [\"feu\", \"eau\", \"air\"]",
            "key `combatants.foe.elements`: 3 elements; allowed: one or two different elements (C-ELEM)",
        ),
        (
            "elements = [\"feu\", \"fire\"]",
            "key `combatants.foe.elements[1]`: \"fire\" is listed twice; allowed: two different elements",
        ),
        (
            "elements = [\"feu\", \"wood\"]",
            "key `combatants.foe.elements[1]`: unknown element \"wood\"; allowed: feu, air,",
        ),
        (
            "element_coefficients = { wood = 1 }",
            "key `combatants.foe.element_coefficients.wood`: unknown element \"wood\"",
        ),
        (
            "element_coefficients = { feu = 11 }",
            "key `combatants.foe.element_coefficients.feu`: 11 is out of range; allowed: -10..10",
        ),
    ] {
        let e = load_err(&with(keys));
        assert!(e.contains(want), "{e}\nwant: {want}");
        assert!(e.starts_with("t.toml:"), "{e}");
    }
}
