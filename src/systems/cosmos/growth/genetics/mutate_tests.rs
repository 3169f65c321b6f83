//! Tests of `mutate.rs` (kept apart so the rules file stays short).

use super::super::tree::{GeneTree, RawGene};
use super::*;
use crate::engine::stream;
use crate::scenario::ScenarioFile;
use crate::systems::trace::Quiet;

fn line(n: usize) -> GeneTree {
    let raw: Vec<RawGene> = (0..n)
        .map(|i| RawGene {
            name: format!("g{i}"),
            parent: (i > 0).then(|| format!("g{}", i - 1)),
            kind: super::super::GeneKind::Normal,
            max: None,
            active: 0,
            exclusive: vec![],
        })
        .collect();
    GeneTree::build(
        &ScenarioFile::from_text("t.toml", "", crate::lang::Lang::En),
        &["genes"],
        &raw,
    )
    .unwrap()
}

fn rules() -> MutationRules {
    MutationRules {
        target_active: false,
        ultimate: UltimateChoice::Fixed(Ultimate::HalfHp),
        karma: TestRules::default(),
        separate_signs: false,
        therapy_negative_only: false,
    }
}

#[test]
fn escalation_on_one_gene() {
    let t = line(1);
    let mut m = Mutations::new(&t, &rules());
    let mut rng = stream(1, 0, 0);
    m.add_minor(0, false, false, &mut rng, &rules(), &mut Quiet);
    assert_eq!(
        m.genes[0],
        GeneState {
            minors: 1,
            ..Default::default()
        }
    );
    m.add_minor(0, false, false, &mut rng, &rules(), &mut Quiet);
    assert_eq!(
        m.genes[0],
        GeneState {
            minors: 2,
            irreversible: true,
            ..Default::default()
        }
    );
    m.add_minor(0, false, false, &mut rng, &rules(), &mut Quiet);
    assert_eq!((m.genes[0], m.majors), (GeneState::default(), 1));
}

#[test]
fn chain_promotes_the_topmost_once() {
    let t = line(3);
    let r = rules();
    let mut m = Mutations::new(&t, &r);
    let mut rng = stream(1, 0, 0);
    for g in 0..3 {
        m.add_minor(g, false, false, &mut rng, &r, &mut Quiet);
    }
    m.check_chains(&mut rng, &r, &mut Quiet);
    assert_eq!((m.majors, m.genes[0].minors), (1, 0));
    // Same chain again: no second promotion.
    m.add_minor(0, false, false, &mut rng, &r, &mut Quiet);
    m.check_chains(&mut rng, &r, &mut Quiet);
    assert_eq!(m.majors, 1);
}

#[test]
fn ultimate_at_the_third_major_and_half_hp_allows_one_more() {
    let t = line(1);
    let r = rules();
    let mut m = Mutations::new(&t, &r);
    let mut rng = stream(1, 0, 0);
    m.add_major(&mut rng, &r, true, MajorCause::Roll, None, &mut Quiet);
    m.add_major(&mut rng, &r, false, MajorCause::Roll, None, &mut Quiet);
    assert_eq!(m.first_ultimate, None);
    m.add_major(&mut rng, &r, false, MajorCause::Roll, None, &mut Quiet);
    assert_eq!(
        (m.first_ultimate, m.final_ultimate),
        (Some(Ultimate::HalfHp), None)
    );
    m.add_major(&mut rng, &r, false, MajorCause::Roll, None, &mut Quiet);
    assert!(matches!(m.final_ultimate, Some(u) if u != Ultimate::HalfHp));
    let fixed = MutationRules {
        ultimate: UltimateChoice::Fixed(Ultimate::Zombie),
        ..r
    };
    let mut m = Mutations::new(&t, &fixed);
    for _ in 0..3 {
        m.add_major(&mut rng, &fixed, false, MajorCause::Roll, None, &mut Quiet);
    }
    assert_eq!(m.final_ultimate, Some(Ultimate::Zombie));
}

#[test]
fn gauge_remainder_carries() {
    let t = line(2);
    let r = rules();
    let chance: Vec<TestSampler> = (-10..=10)
        .map(|k| {
            TestSampler::new(
                &crate::systems::cosmos::TestSpec::new(50.0, k).unwrap(),
                &Default::default(),
            )
        })
        .collect();
    let mut m = Mutations::new(&t, &r);
    let mut rng = stream(1, 0, 0);
    assert_eq!(m.accrue(250, &mut rng, &chance, &r, &mut Quiet), 2);
    assert_eq!(m.pmu, 50);
    assert_eq!(m.accrue(49, &mut rng, &chance, &r, &mut Quiet), 0);
    assert_eq!(m.accrue(1, &mut rng, &chance, &r, &mut Quiet), 1);
    assert_eq!(m.pmu, 0);
    m.cure_reversible(&r);
}

#[test]
fn minor_signs_escalate_together_or_apart() {
    // Default reading: + - + on one gene is three minors, so a major, positive as two
    // of the three (issue 25); - - + a negative one; + + + a positive one.
    let t = line(1);
    let r = rules();
    let mut rng = stream(1, 0, 0);
    let mut m = Mutations::new(&t, &r);
    for pos in [true, false, true] {
        m.add_minor(0, false, pos, &mut rng, &r, &mut Quiet);
    }
    assert_eq!((m.majors, m.majors_positive), (1, 1));
    for pos in [false, false, true] {
        m.add_minor(0, false, pos, &mut rng, &r, &mut Quiet);
    }
    assert_eq!((m.majors, m.majors_positive), (2, 1));
    let mut m = Mutations::new(&t, &r);
    for _ in 0..3 {
        m.add_minor(0, false, true, &mut rng, &r, &mut Quiet);
    }
    assert_eq!(
        (m.majors, m.majors_positive, m.genes[0]),
        (1, 1, GeneState::default())
    );
    // minor_sign = separate: + - + is two positives and one negative, no major; the
    // second positive made the positive minors irreversible, the negative stays curable.
    let sep = MutationRules {
        separate_signs: true,
        ..r
    };
    let mut m = Mutations::new(&t, &sep);
    for pos in [true, false, true] {
        m.add_minor(0, false, pos, &mut rng, &sep, &mut Quiet);
    }
    assert_eq!(m.majors, 0);
    assert_eq!(
        m.genes[0],
        GeneState {
            minors: 3,
            irreversible: false,
            positive: 2,
            positive_irreversible: true
        }
    );
    m.cure_reversible(&sep);
    assert_eq!((m.genes[0].minors, m.genes[0].positive), (2, 2));
    // A third positive: a positive major, the gene keeps nothing.
    m.add_minor(0, false, true, &mut rng, &sep, &mut Quiet);
    assert_eq!((m.majors, m.majors_positive), (1, 1));
    assert_eq!(m.genes[0], GeneState::default());
    // Three negatives: a negative major.
    for _ in 0..3 {
        m.add_minor(0, false, false, &mut rng, &sep, &mut Quiet);
    }
    assert_eq!((m.majors, m.majors_positive), (2, 1));
}

#[test]
fn together_chain_promotes_a_positive_minor_as_positive() {
    // Issue 25: under the default `minor_sign = together`, three consecutive genes each
    // with a positive minor promote a positive major (it was counted negative).
    let t = line(3);
    let r = rules();
    let mut rng = stream(1, 0, 0);
    let mut m = Mutations::new(&t, &r);
    for g in 0..3 {
        m.add_minor(g, false, true, &mut rng, &r, &mut Quiet);
    }
    m.check_chains(&mut rng, &r, &mut Quiet);
    assert_eq!((m.majors, m.majors_positive, m.genes[0].minors), (1, 1, 0));
    assert_eq!(m.genes[0], GeneState::default());
}

#[test]
fn separate_chain_promotes_with_the_sign_of_the_minor() {
    let t = line(3);
    let sep = MutationRules {
        separate_signs: true,
        ..rules()
    };
    let mut rng = stream(1, 0, 0);
    let mut m = Mutations::new(&t, &sep);
    for g in 0..3 {
        m.add_minor(g, false, true, &mut rng, &sep, &mut Quiet);
    }
    m.check_chains(&mut rng, &sep, &mut Quiet);
    assert_eq!((m.majors, m.majors_positive, m.genes[0].minors), (1, 1, 0));
}

#[test]
fn therapy_cures_positive_minors_only_under_reversible() {
    // C-GENE-5 "gene therapy cures reversible minors"; the book (cosmos-current l. 296):
    // "Mutation mineure : ... qui peut être complètement soignée et retiré à l'aide d'une
    // thérapie génique", of either sign. Gene 0 a positive minor, gene 2 a negative one
    // (no chain: gene 1 is clean); `therapy_cures = negative` keeps the positive one.
    let t = line(3);
    for (separate, negative_only, left) in [
        (false, false, [0, 0]),
        (false, true, [1, 0]),
        (true, false, [0, 0]),
        (true, true, [1, 0]),
    ] {
        let r = MutationRules {
            separate_signs: separate,
            therapy_negative_only: negative_only,
            ..rules()
        };
        let mut rng = stream(1, 0, 0);
        let mut m = Mutations::new(&t, &r);
        m.add_minor(0, false, true, &mut rng, &r, &mut Quiet);
        m.add_minor(2, false, false, &mut rng, &r, &mut Quiet);
        let cured = m.cure_reversible(&r);
        let now = [m.genes[0].minors, m.genes[2].minors];
        assert_eq!(
            (now, cured),
            (left, 2 - left[0] as u32),
            "{separate} {negative_only}"
        );
        assert_eq!(m.genes[0].positive, left[0]);
    }
    let o =
        crate::rules::RuleOptions::from_pairs(&["therapy_cures=negative"], crate::lang::Lang::En)
            .unwrap();
    assert!(MutationRules::from_options(&o).therapy_negative_only);
    assert!(!MutationRules::from_options(&Default::default()).therapy_negative_only);
}
