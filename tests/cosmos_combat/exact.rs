//! One-round kills against the exact test distribution, and the element table cell by cell
//! (C-CMB, C-ELEM).

use super::*;

#[test]
fn one_round_kill_chance_matches_the_exact_test_distribution() {
    // The hero strikes first (Agilité 60 > 40) an Offensive foe (no defence) with HP 16
    // for a flat 10: Success deals 10 x 1.5 (Offensive) = 15, not enough; a crit deals
    // 10 x 1.5 x 1.5 = 22 and a super 30: the round-1 win chance is P(crit or super).
    let t = duel(
        "level = 3\nmode = \"offensive\"\nattacks = [\"ten\"]",
        "",
        "level = 3\nhp = 16\nmode = \"offensive\"\nattacks = [\"tickle\"]",
        "[combat]\nmax_rounds = 1",
    )
    .replace(
        "[attacks.kill]",
        "[attacks.ten]\nstat = \"force\"\ndamage = \"10\"\n\n[attacks.kill]",
    );
    let n = 400_000;
    let (sim, acc) = run_text(&t, n, &[]);
    let heroes = sim.model.sides.iter().position(|s| s == "heroes").unwrap();
    let exact = TestSpec::new(60.0, 0).unwrap().exact(&TestRules::default());
    let p = exact.prob(&Outcome::CritSuccess) + exact.prob(&Outcome::SuperSuccess);
    agrees(acc.outcome[heroes], n, p);
    // A Defensive foe parries or dodges (Force 60 / Agilité 40: parry at 60): the hero
    // wins iff its crit is not met by a crit/super parry, or it rolls a super and the
    // parry is not a super.
    let t2 = t.replace(
        "hp = 16\nmode = \"offensive\"",
        "hp = 16\nmode = \"defensive\"",
    );
    let (_, acc) = run_text(&t2, n, &[]);
    let d = exact.clone();
    let (dc, ds) = (
        d.prob(&Outcome::CritSuccess),
        d.prob(&Outcome::SuperSuccess),
    );
    let p = exact.prob(&Outcome::CritSuccess) * (1.0 - dc - ds)
        + exact.prob(&Outcome::SuperSuccess) * (1.0 - ds);
    agrees(acc.outcome[heroes], n, p);
}

/// The rulebook table as printed (cosmos-current.fr.txt, "Forces et faiblesses
/// élémentaires"): column = attacking element, row = target element.
const RULEBOOK_TABLE: &str = "\
\tFeu\tAir\tEau\tTerre\tGlace\tMétal\tÉlec\tSang\tPoison\tPlante\tDark\tLight
Feu\t1\t1,5\t2\t1,25\t0\t0,5\t1\t1,25\t1\t0\t0,75\t1
Air\t0,5\t1\t0,5\t1\t1,25\t1\t1\t1\t1\t0,5\t1\t1
Eau\t0\t1,5\t1\t1,5\t1,75\t0,5\t2\t1\t1,25\t1,5\t1\t1
Terre\t0,75\t0\t0,75\t1\t1\t1,25\t0,75\t0,75\t1\t1,25\t1\t0,75
Glace\t2\t0,75\t0,25\t1\t1\t1\t1\t0,25\t0\t0,5\t1\t1
Métal\t1,5\t0,5\t1,5\t0,75\t1\t1\t2\t0,75\t0\t0\t1\t0,75
Élec\t1\t1\t1,5\t1\t1\t0,5\t1\t1\t1\t0,5\t1\t1
Sang\t0,75\t1\t1\t1,25\t1,75\t1,25\t2\t1\t1,25\t1\t1\t1
Poison\t1\t1\t1\t1\t2\t1\t1\t0,75\t1\t1\t1\t1
Plante\t2\t1,5\t0,5\t1,25\t1,5\t2\t1,5\t1\t1,5\t1\t1,25\t0,75
Dark\t1,25\t1\t1\t1\t1\t1\t1,25\t1\t1\t0,75\t1\t2
Light\t1\t1\t1\t1\t1\t1\t1\t1\t1\t1,25\t2\t1";

#[test]
fn element_table_matches_the_rulebook_cell_by_cell() {
    let mut lines = RULEBOOK_TABLE.lines();
    let header: Vec<Element> = lines
        .next()
        .unwrap()
        .split('\t')
        .skip(1)
        .map(|n| Element::parse(n).unwrap())
        .collect();
    assert_eq!(header.len(), 12);
    let mut cells = 0;
    for line in lines {
        let mut f = line.split('\t');
        let target = Element::parse(f.next().unwrap()).unwrap();
        for (attacker, v) in header.iter().zip(f) {
            let v: f64 = v.replace(',', ".").parse().unwrap();
            assert_eq!(
                ELEMENT_TABLE[target.0 as usize][attacker.0 as usize],
                v,
                "{} on {}",
                attacker.name(),
                target.name()
            );
            cells += 1;
        }
    }
    assert_eq!(cells, 144);
}
