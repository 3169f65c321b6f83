//! Per-combatant answers (every combatant, whatever its policy): `combat-combatants.csv`
//! and the `## Every combatant` table of `summary.md` — P(down) with its interval, damage
//! dealt and taken (mean and quantiles), HP at end, actions, first actor share, FP/FM at
//! end, Revive and backlash per combat, advantage/disadvantage faces (C-LD-5, C-LD-6).

use polars::prelude::*;

use super::acc::{CombatAcc, FighterAcc};
use super::report::{pct, rate, rate_text};
use super::sim::CombatSim;

const QS: [f64; 3] = [0.1, 0.5, 0.9];

fn mean_of(v: &[u64; 14], n: u64) -> f64 {
    let s: i64 = v
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as i64 - 3) * c as i64)
        .sum();
    s as f64 / n.max(1) as f64
}

/// The `combat-combatants` table.
pub fn frame(sim: &CombatSim, acc: &CombatAcc) -> PolarsResult<DataFrame> {
    let m = &sim.model;
    let n = acc.combats;
    let nf = n.max(1) as f64;
    let fs: Vec<(usize, &FighterAcc)> = acc.fighters.iter().enumerate().collect();
    let col_f = |name: &str, f: &dyn Fn(usize, &FighterAcc) -> f64| {
        Column::new(
            name.into(),
            fs.iter().map(|(i, a)| f(*i, a)).collect::<Vec<f64>>(),
        )
    };
    let col_u = |name: &str, f: &dyn Fn(usize, &FighterAcc) -> u64| {
        Column::new(
            name.into(),
            fs.iter().map(|(i, a)| f(*i, a)).collect::<Vec<u64>>(),
        )
    };
    let mut cols = vec![
        Column::new(
            "combatant".into(),
            m.fighters
                .iter()
                .map(|f| f.name.clone())
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "side".into(),
            m.fighters
                .iter()
                .map(|f| m.sides[f.side].clone())
                .collect::<Vec<_>>(),
        ),
        Column::new("combats".into(), vec![n; fs.len()]),
        col_u("down", &|_, a| a.down),
        col_f("p_down", &|_, a| rate(a.down, n).0),
        col_f("p_down_lo", &|_, a| rate(a.down, n).1),
        col_f("p_down_hi", &|_, a| rate(a.down, n).2),
        col_f("first_actor_share", &|_, a| a.first_actor as f64 / nf),
        col_f("actions_per_combat", &|_, a| a.actions as f64 / nf),
    ];
    for (what, k) in [("dealt", 0usize), ("taken", 1), ("hp_end", 2)] {
        let hist = |a: &FighterAcc| match k {
            0 => a.dealt,
            1 => a.taken,
            _ => a.hp_end,
        };
        let width = |i: usize| match k {
            0 => sim.widths[i].0,
            1 => sim.widths[i].1,
            _ => sim.widths[i].2,
        };
        cols.push(col_f(&format!("{what}_mean"), &|_, a| {
            hist(a).sum as f64 / nf
        }));
        for q in QS {
            cols.push(col_u(
                &format!("{what}_p{}", (q * 100.0) as u32),
                &|i, a| hist(a).quantile(q, width(i)),
            ));
        }
    }
    cols.push(col_f("fp_end_mean", &|_, a| mean_of(&a.fp_end, n)));
    cols.push(col_f("fm_end_mean", &|_, a| mean_of(&a.fm_end, n)));
    cols.push(col_f("revive_per_combat", &|_, a| {
        a.posture[1].revive as f64 / nf
    }));
    cols.push(col_f("backlash_per_combat", &|_, a| {
        (a.posture[0].backlash + a.posture[1].backlash) as f64 / nf
    }));
    for face in 0..6 {
        cols.push(col_u(&format!("advantage_{}", face + 1), &|_, a| {
            a.adv_faces[face]
        }));
    }
    for face in 0..6 {
        cols.push(col_u(&format!("disadvantage_{}", face + 1), &|_, a| {
            a.disadv_faces[face]
        }));
    }
    DataFrame::new_infer_height(cols)
}

/// The key figure line: who goes down most often.
pub fn answer(sim: &CombatSim, acc: &CombatAcc) -> String {
    let (i, a) = acc
        .fighters
        .iter()
        .enumerate()
        .max_by_key(|(i, a)| (a.down, std::cmp::Reverse(*i)))
        .expect("at least two combatants");
    format!(
        "down most often: {} ({}, {})",
        sim.model.fighters[i].name,
        sim.model.sides[sim.model.fighters[i].side],
        rate_text(a.down, acc.combats)
    )
}

/// The `## Every combatant` section of `summary.md`.
pub fn section(sim: &CombatSim, acc: &CombatAcc) -> String {
    let n = acc.combats;
    let nf = n.max(1) as f64;
    let mut s = String::from(
        "\n## Every combatant\n\nDamage after armour and before Revive; quantiles p10 / p50 / p90, each to within one histogram bucket (1/128 of twice the enemies' max HP for damage dealt, of twice its own max HP for damage taken, of its max HP for HP at end).\n\n| combatant | side | P(down) | damage dealt: mean (p10 / p50 / p90) | damage taken: mean (p10 / p50 / p90) | HP at end (p10 / p50 / p90) | actions/combat | acted first | FP / FM at end (mean) | Revive/combat | backlash/combat |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for (i, (f, a)) in sim.model.fighters.iter().zip(&acc.fighters).enumerate() {
        let (wd, wt, wh) = sim.widths[i];
        let q = |h: &super::acc::Hist, w: u64| {
            QS.iter()
                .map(|&q| h.quantile(q, w).to_string())
                .collect::<Vec<_>>()
                .join(" / ")
        };
        s += &format!(
            "| {} | {} | {} | {:.1} ({}) | {:.1} ({}) | {} | {:.2} | {} | {:+.2} / {:+.2} | {:.3} | {:.3} |\n",
            f.name,
            sim.model.sides[f.side],
            rate_text(a.down, n),
            a.dealt.sum as f64 / nf,
            q(&a.dealt, wd),
            a.taken.sum as f64 / nf,
            q(&a.taken, wt),
            q(&a.hp_end, wh),
            a.actions as f64 / nf,
            pct(a.first_actor as f64 / nf),
            mean_of(&a.fp_end, n),
            mean_of(&a.fm_end, n),
            a.posture[1].revive as f64 / nf,
            (a.posture[0].backlash + a.posture[1].backlash) as f64 / nf,
        );
    }
    let faces = |v: &[u64; 6]| {
        v.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" / ")
    };
    let mut lines = Vec::new();
    for (f, a) in sim.model.fighters.iter().zip(&acc.fighters) {
        if a.adv_faces.iter().sum::<u64>() + a.disadv_faces.iter().sum::<u64>() > 0 {
            lines.push(format!(
                "- {}: Illumination advantage faces 1..6: {}; Sépulcrale disadvantage faces 1..6: {}",
                f.name,
                faces(&a.adv_faces),
                faces(&a.disadv_faces)
            ));
        }
    }
    if !lines.is_empty() {
        s +=
            "\nAdvantage (C-LD-5) and disadvantage (C-LD-6) faces rolled, summed over combats:\n\n";
        s += &lines.join("\n");
        s += "\n";
    }
    s
}
