//! Spell casting by a Nephilim (N-MAGIC): concentration test, then control test.
//! Source: nephilim-v3.fr.txt, "Le lancer de sorts par les Nephilim, en pratique",
//! "La Magie", "Les Plexus et Nexus", "Le rituel de la stase".

use crate::dice::Dist;
use crate::error::UserError;
use crate::lang::Lang;

use super::ka::normalise;
use super::test::classify;
use super::NephilimRules;

/// The circle of a spell: its own skill, concentration table row and control difficulty.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Circle {
    BasseMagie,
    HauteMagie,
    GrandSecret,
}

impl Circle {
    /// Every circle, lowest first.
    pub const ALL: [Circle; 3] = [Circle::BasseMagie, Circle::HauteMagie, Circle::GrandSecret];

    /// snake_case name used in flags and CSV.
    pub fn name(self) -> &'static str {
        match self {
            Circle::BasseMagie => "basse_magie",
            Circle::HauteMagie => "haute_magie",
            Circle::GrandSecret => "grand_secret",
        }
    }

    /// The circle named `s`, if any.
    pub fn parse(s: &str) -> Option<Circle> {
        Circle::ALL.into_iter().find(|c| c.name() == s)
    }

    /// Concentration difficulty by duration. The rulebook rows read, from a free action
    /// to x days: Basse Magie +1..-7, Haute Magie +2..-6, Grand Secret +3..-5.
    pub fn concentration_difficulty(self, d: Duration) -> i64 {
        self.control_difficulty() + 1 - d as i64
    }

    /// Control difficulty before effect increments: 0 / +1 / +2.
    pub fn control_difficulty(self) -> i64 {
        self as i64
    }
}

/// Concentration time; `x` is the spell level + 4 (only the length of time depends on it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Duration {
    FreeAction,
    Action,
    Rounds,
    Turns,
    Minutes,
    TenMinutes,
    Hours,
    SixHours,
    Days,
}

impl Duration {
    /// Every concentration time, shortest first.
    pub const ALL: [Duration; 9] = [
        Duration::FreeAction,
        Duration::Action,
        Duration::Rounds,
        Duration::Turns,
        Duration::Minutes,
        Duration::TenMinutes,
        Duration::Hours,
        Duration::SixHours,
        Duration::Days,
    ];

    /// snake_case name used in flags and CSV.
    pub fn name(self) -> &'static str {
        match self {
            Duration::FreeAction => "free_action",
            Duration::Action => "action",
            Duration::Rounds => "x_rounds",
            Duration::Turns => "x_turns",
            Duration::Minutes => "x_minutes",
            Duration::TenMinutes => "x_ten_minutes",
            Duration::Hours => "x_hours",
            Duration::SixHours => "x_six_hours",
            Duration::Days => "x_days",
        }
    }

    /// The duration named `s`, if any.
    pub fn parse(s: &str) -> Option<Duration> {
        Duration::ALL.into_iter().find(|d| d.name() == s)
    }
}

/// A plexus modifier `+ndA-mdB` on control tests ("+1D6-1D4"; plain dice 1..faces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plexus {
    pub plus: (u32, u32),
    pub minus: (u32, u32),
}

impl Plexus {
    /// Parses `1d6-1d4`, `+1D6-1D4` or `1d8-1d8`.
    pub fn parse(s: &str) -> Result<Plexus, String> {
        let bad = || {
            format!(
                "`{s}` is not a plexus modifier; expected e.g. 1d6-1d4, 1d8-1d4, 1d8-1d8 or none"
            )
        };
        let t = s.trim().trim_start_matches('+').to_ascii_lowercase();
        let (a, b) = t.split_once('-').ok_or_else(bad)?;
        let dice = |x: &str| -> Result<(u32, u32), String> {
            let (n, f) = x.split_once('d').ok_or_else(bad)?;
            let n: u32 = if n.is_empty() {
                1
            } else {
                n.parse().map_err(|_| bad())?
            };
            let f: u32 = f.parse().map_err(|_| bad())?;
            if !(1..=4).contains(&n) || !(2..=20).contains(&f) {
                return Err(format!(
                    "`{s}`: each side must be 1 to 4 dice of 2 to 20 faces"
                ));
            }
            Ok((n, f))
        };
        Ok(Plexus {
            plus: dice(a)?,
            minus: dice(b)?,
        })
    }

    /// Exact law of the modifier.
    pub fn dist(&self) -> Dist<i64> {
        let side = |(n, f): (u32, u32)| Dist::die(u64::from(f)).sum_of(n as usize);
        side(self.plus).sub(&side(self.minus))
    }

    /// `+1D6-1D4` as the rulebook writes it.
    pub fn text(&self) -> String {
        format!(
            "+{}D{}-{}D{}",
            self.plus.0, self.plus.1, self.minus.0, self.minus.1
        )
    }
}

/// What the spell asks for, besides the caster.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spell {
    pub circle: Circle,
    /// Spell level -3..+6; the casting skill must be at least this.
    pub level: i64,
    /// Effect increments (targets, range, duration...): +1 control difficulty each.
    pub increments: i64,
    pub plexus: Option<Plexus>,
    /// Stase points the Nephilim tries to draw (0 = no stase ritual).
    pub stase: i64,
}

/// Probabilities of one casting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Casting {
    pub p_concentration: f64,
    /// P(control succeeds | concentration succeeded).
    pub p_control: f64,
    pub p_works: f64,
}

/// The exact pipeline, with the +1D-1D law and plexus/stase laws precomputed.
pub struct MagicModel {
    rules: NephilimRules,
    roll: Dist<i64>,
    crit: i64,
    plexus: Dist<i64>,
    stase: Dist<i64>,
}

impl MagicModel {
    /// Precomputes the dice laws of `spell` under `rules`.
    pub fn new(spell: &Spell, rules: NephilimRules) -> MagicModel {
        let roll = rules.die.roll_dist();
        // Stase ritual: the points drawn are the request + 1D-1D, never below 0.
        let stase = if spell.stase > 0 {
            roll.map(|r| (spell.stase + r).max(0))
        } else {
            Dist::certain(0)
        };
        MagicModel {
            rules,
            crit: rules.crit_from(),
            plexus: spell
                .plexus
                .map(|p| p.dist())
                .unwrap_or_else(|| Dist::certain(0)),
            stase,
            roll,
        }
    }

    /// P(concentration, control, works) for a caster with `skill` in the circle's casting
    /// skill and raw Ka-element `ka_element`.
    pub fn cast(
        &self,
        lang: Lang,
        spell: &Spell,
        skill: i64,
        ka_element: i64,
        duration: Duration,
    ) -> Result<Casting, UserError> {
        normalise(lang, ka_element, self.rules.ka_band)?;
        if skill < spell.level {
            // "le Nephilim doit avoir au moins autant dans sa compétence que ce niveau": no
            // casting, so no control test to be conditional on: empty (NaN), as the Monte
            // Carlo table writes it, under every `concentration_carry` (it showed 0 without
            // the carry, a control "sure to fail" that is never rolled).
            return Ok(Casting {
                p_concentration: 0.0,
                p_control: f64::NAN,
                p_works: 0.0,
            });
        }
        let score = if self.rules.double_skill {
            2 * skill
        } else {
            skill
        };
        let margin = score - spell.circle.concentration_difficulty(duration);
        // Concentration successes by the bonus they carry to the control test.
        let mut carried: Vec<(i64, f64)> = Vec::new();
        for (raw, q) in self.roll.outcomes() {
            if classify(margin, *raw, self.crit).is_success() {
                let carry = if self.rules.carry_margin {
                    margin + raw
                } else {
                    0
                };
                carried.push((carry, *q));
            }
        }
        // + 0.0: no success sums to -0.0, printed -0.0000000000 (audit of 2026-12-06).
        let p_conc: f64 = carried.iter().map(|c| c.1).sum::<f64>() + 0.0;
        let mut p_works = 0.0;
        for (carry, q) in &carried {
            p_works += q * self.p_control(lang, spell, ka_element, *carry)?;
        }
        let p_control = if p_conc > 0.0 {
            p_works / p_conc
        } else {
            self.undefined_control(self.p_control(lang, spell, ka_element, 0)?)
        };
        Ok(Casting {
            p_concentration: p_conc,
            p_control,
            p_works,
        })
    }

    /// `p_control` where the concentration never succeeds: with its margin carried
    /// (`concentration_carry = margin`) the control test depends on a concentration that
    /// never happens, so the conditional chance is undefined (NaN, an empty CSV cell, as
    /// the MC table writes it; audit of 2026-12-08: it showed the chance at carry 0).
    /// Without the carry the control test does not depend on the concentration, so its
    /// chance `independent` is the conditional one and the default table keeps its bytes.
    fn undefined_control(&self, independent: f64) -> f64 {
        if self.rules.carry_margin {
            f64::NAN
        } else {
            independent
        }
    }

    /// P(control test succeeds) with a `carry` bonus from concentration.
    pub fn p_control(
        &self,
        lang: Lang,
        spell: &Spell,
        ka_element: i64,
        carry: i64,
    ) -> Result<f64, UserError> {
        let difficulty = spell.circle.control_difficulty() + spell.increments;
        let mut p = 0.0;
        for (drawn, qs) in self.stase.outcomes() {
            let ka_score = if self.rules.stase_normalised {
                normalise(lang, ka_element, self.rules.ka_band)? + drawn
            } else {
                normalise(lang, ka_element + drawn, self.rules.ka_band)?
            };
            for (plex, qp) in self.plexus.outcomes() {
                // The plexus is a modifier: crits stay on the raw +1D-1D (N-CRIT).
                let margin = ka_score + plex + carry - difficulty;
                let ok: f64 = self
                    .roll
                    .outcomes()
                    .iter()
                    .filter(|(raw, _)| classify(margin, *raw, self.crit).is_success())
                    .map(|(_, q)| q)
                    .sum();
                p += qs * qp * ok;
            }
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleOptions;

    fn spell(circle: Circle) -> Spell {
        Spell {
            circle,
            level: 0,
            increments: 0,
            plexus: None,
            stase: 0,
        }
    }

    #[test]
    fn duration_table_rows() {
        let row = |c: Circle| Duration::ALL.map(|d| c.concentration_difficulty(d));
        assert_eq!(row(Circle::BasseMagie), [1, 0, -1, -2, -3, -4, -5, -6, -7]);
        assert_eq!(row(Circle::HauteMagie), [2, 1, 0, -1, -2, -3, -4, -5, -6]);
        assert_eq!(row(Circle::GrandSecret), [3, 2, 1, 0, -1, -2, -3, -4, -5]);
    }

    #[test]
    fn basse_magie_by_hand() {
        // Skill 0, normal action: concentration margin 0 -> 22/36. Ka 16..20 -> 0 vs 0 -> 22/36.
        let s = spell(Circle::BasseMagie);
        let m = MagicModel::new(&s, NephilimRules::default());
        let c = m.cast(Lang::En, &s, 0, 18, Duration::Action).unwrap();
        let p = 22.0 / 36.0;
        assert!((c.p_concentration - p).abs() < 1e-12);
        assert!((c.p_control - p).abs() < 1e-12);
        assert!((c.p_works - p * p).abs() < 1e-12);
        // Skill below the spell level: cannot cast, and no control test to speak of.
        let hard = Spell { level: 2, ..s };
        let c = m.cast(Lang::En, &hard, 1, 18, Duration::Action).unwrap();
        assert_eq!((c.p_concentration, c.p_works), (0.0, 0.0));
        assert!(c.p_control.is_nan(), "{}", c.p_control);
    }

    #[test]
    fn margin_carry_helps_and_plexus_parses() {
        let s = spell(Circle::HauteMagie);
        let plain = MagicModel::new(&s, NephilimRules::default())
            .cast(Lang::En, &s, 1, 20, Duration::Rounds)
            .unwrap();
        let rules = NephilimRules::from_options(
            &RuleOptions::from_pairs(&["concentration_carry=margin"], crate::lang::Lang::En)
                .unwrap(),
        );
        let carry = MagicModel::new(&s, rules)
            .cast(Lang::En, &s, 1, 20, Duration::Rounds)
            .unwrap();
        assert!(carry.p_works > plain.p_works);
        assert_eq!(carry.p_concentration, plain.p_concentration);
        let p = Plexus::parse("+1D6-1D4").unwrap();
        assert_eq!(
            p,
            Plexus {
                plus: (1, 6),
                minus: (1, 4)
            }
        );
        assert!((p.dist().mean() - 1.0).abs() < 1e-12);
        assert!(Plexus::parse("1d6+1d4").is_err());
        assert!(Plexus::parse("1d100-1d4")
            .unwrap_err()
            .contains("2 to 20 faces"));
    }

    #[test]
    fn stase_points_raise_control() {
        let s = Spell {
            stase: 5,
            ..spell(Circle::BasseMagie)
        };
        let base = spell(Circle::BasseMagie);
        let with = MagicModel::new(&s, NephilimRules::default())
            .p_control(Lang::En, &s, 18, 0)
            .unwrap();
        let without = MagicModel::new(&base, NephilimRules::default())
            .p_control(Lang::En, &base, 18, 0)
            .unwrap();
        assert!(with > without);
    }
}
