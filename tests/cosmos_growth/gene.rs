//! The gene tree and mutation (C-GENE).

use super::*;

const GENE_HEAD: &str = "system = \"cosmos\"\nkind = \"mutation\"\n[mutation]\nchance = 50\nmax_days = 30\n[[mutation.schedule]]\npmu = \"2d10\"\n";

fn gene_error(dir: &std::path::Path, genes: &str) -> String {
    let p = write(dir, "genes.toml", &format!("{GENE_HEAD}{genes}"));
    let f = ScenarioFile::read(&p, cosmosim::lang::Lang::En).unwrap();
    cosmosim::systems::cosmos::growth::scenarios::mutation::check(&f)
        .unwrap_err()
        .0
        .replace(&p.display().to_string(), "genes.toml")
}

#[test]
fn golden_gene_tree_errors() {
    // C-GENE-1: unknown parents, cycles and bad exclusive pairs are located errors.
    let dir = tempfile::tempdir().unwrap();
    let g = |name: &str, extra: &str| format!("[[mutation.genes]]\nname = \"{name}\"\n{extra}");
    assert_eq!(
        gene_error(dir.path(), &(g("a", "") + &g("b", "parent = \"z\"\n"))),
        "genes.toml:12:10: key `mutation.genes[1].parent`: unknown parent gene \"z\"; allowed: a, b"
    );
    assert_eq!(
        gene_error(dir.path(), &(g("a", "parent = \"b\"\n") + &g("b", "parent = \"a\"\n"))),
        "genes.toml:10:10: key `mutation.genes[0].parent`: gene \"a\" is its own ancestor (a cycle); allowed: a tree: parents must lead to a root gene without a parent"
    );
    assert_eq!(
        gene_error(dir.path(), &(g("a", "active = 1\nexclusive = [\"b\"]\n") + &g("b", "active = 2\n"))),
        "genes.toml:11:14: key `mutation.genes[0].exclusive[0]`: \"a\" and \"b\" are exclusive but both active; allowed: at most one active gene of an exclusive pair"
    );
    assert!(gene_error(dir.path(), &g("a", "exclusive = [\"a\"]\n"))
        .contains("cannot be exclusive with itself"));
    assert!(gene_error(dir.path(), &g("a", "kind = \"special\"\n"))
        .contains("a special gene needs a max"));
    // A schedule's Pµ dice: not dice at all, or past a cap, which names itself (audit of
    // 2026-12-07, night: a cap said only "is not a dice expression").
    for (name, pmu, want) in [
        ("sched.toml", "2x10", "\"2x10\" is not a dice expression"),
        (
            "cap.toml",
            "200d10",
            "`200d10`: dice counts must be 1..100 and faces 1..1000",
        ),
    ] {
        let text = format!("system = \"cosmos\"\nkind = \"mutation\"\n[mutation]\nchance = 50\nmax_days = 30\ntree = \"sample\"\n[[mutation.schedule]]\npmu = \"{pmu}\"\n");
        let want = format!("{name}:8:7: key `mutation.schedule[0].pmu`: {want}");
        let p = write(dir.path(), name, &text);
        bin()
            .arg("check")
            .arg(&p)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(want));
    }
}

#[test]
fn mutation_gauge_and_ultimates_on_a_crafted_tree() {
    // C-GENE-2/4/5 on a line of three genes: the gauge remainder carries; an ultimate
    // arrives exactly with the 3rd major and never before.
    use cosmosim::systems::cosmos::growth::genetics::{
        GeneKind, GeneTree, MutationRules, Mutations, RawGene, UltimateChoice,
    };
    use cosmosim::systems::cosmos::TestSampler;
    let raw: Vec<RawGene> = (0..3)
        .map(|i| RawGene {
            name: format!("g{i}"),
            parent: (i > 0).then(|| format!("g{}", i - 1)),
            kind: GeneKind::Normal,
            max: None,
            active: 0,
            exclusive: vec![],
        })
        .collect();
    let tree = GeneTree::build(
        &ScenarioFile::from_text("t.toml", "", cosmosim::lang::Lang::En),
        &["genes"],
        &raw,
    )
    .unwrap();
    assert_eq!(tree.chains, vec![[0, 1, 2]]);
    let r = MutationRules {
        target_active: false,
        ultimate: UltimateChoice::Random,
        karma: TestRules::default(),
        separate_signs: false,
        therapy_negative_only: false,
    };
    let chance: Vec<TestSampler> = (-10..=10)
        .map(|k| TestSampler::new(&TestSpec::new(50.0, k).unwrap(), &TestRules::default()))
        .collect();
    let mut m = Mutations::new(&tree, &r);
    let mut rng = stream(8, 0, 0);
    let mut total_in = 0i64;
    let mut mutations = 0i64;
    for _ in 0..20_000 {
        m.reset(0);
        for _ in 0..200 {
            let x = Die::D100.roll(&mut rng) as i32;
            total_in += x as i64;
            let before = m.majors;
            mutations += m.accrue(
                x,
                &mut rng,
                &chance,
                &r,
                &mut cosmosim::systems::trace::Quiet,
            ) as i64;
            assert_eq!(
                m.first_ultimate.is_some(),
                m.majors >= 3,
                "ultimate exactly at the 3rd major"
            );
            assert!(m.majors <= 4 && m.majors >= before);
            if m.done() {
                break;
            }
            assert_eq!(
                total_in - 100 * mutations,
                m.pmu as i64,
                "Pµ remainder carries"
            );
        }
        total_in = 0;
        mutations = 0;
    }
}

/// The shipped mutation scenario's `mutation-ultimates` output at `trials` characters:
/// its ultimate names, `share_first` and `share_final`.
fn ultimates(trials: u64) -> (Vec<String>, Vec<f64>, Vec<f64>) {
    let f = ScenarioFile::read(
        std::path::Path::new("scenarios/cosmos/mutation.toml"),
        cosmosim::lang::Lang::En,
    )
    .unwrap();
    let o = cosmosim::systems::RunOverrides {
        trials: Some(trials),
        quiet: true,
        ..Default::default()
    };
    let r = cosmosim::systems::cosmos::growth::scenarios::mutation::run(&f, &o).unwrap();
    let u = r
        .outputs
        .iter()
        .find(|o| o.name == "mutation-ultimates")
        .unwrap();
    let col = |c: &str| -> Vec<f64> {
        u.frame
            .column(c)
            .unwrap()
            .f64()
            .unwrap()
            .into_no_null_iter()
            .collect()
    };
    let ult = u.frame.column("ultimate").unwrap().str().unwrap().clone();
    let names = (0..ult.len())
        .map(|i| ult.get(i).unwrap().to_string())
        .collect();
    (names, col("share_first"), col("share_final"))
}

#[test]
fn mutation_ultimate_shares_are_uniform() {
    // C-GENE-5 random choice: each of the four first ultimates has share 1/4.
    let (_, shares, _) = ultimates(40_000);
    let n: f64 = 40_000.0 * 0.5; // at least half reach an ultimate in 180 days
    for s in shares {
        assert!((s - 0.25).abs() <= 5.0 * (0.25 * 0.75 / n).sqrt(), "{s}");
    }
}

#[test]
fn final_ultimate_shares_count_who_still_holds_half_hp() {
    // C-GENE-5: half_hp allows one more major, then a draw among 1-3. A character still at
    // half HP when the run ends holds half_hp: the final shares are over everyone who
    // reached an ultimate, as the first shares are (audit of 2026-12-07, night: the half_hp
    // row of share_final read 0 whatever the run).
    let (names, first, last) = ultimates(20_000);
    let half = names.iter().position(|n| n == "half_hp").unwrap();
    assert!((last.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{last:?}");
    // Some half_hp holders get their next major before the run ends, not all of them.
    assert!(
        last[half] > 0.0 && last[half] < first[half],
        "{last:?} {first:?}"
    );
    // A final 1-3 comes first or after half_hp: never below its first share.
    for (i, (l, f)) in last.iter().zip(&first).enumerate() {
        if i != half {
            assert!(l >= f, "{}: {l} < {f}", names[i]);
        }
    }
}
