//! The validated skirmish: weapons, groups of combatants on two to four sides, where they
//! stand and what cover they have (T-COMBAT, T-LIFE). Every error names file:line:col, the
//! key path and the allowed values; `check` and `run` both go through [`load`].

use std::collections::BTreeMap;

use crate::error::UserError;
use crate::scenario::{int_at, int_in, shown_key, RunSection, ScenarioFile};
pub use crate::systems::trinites::duel::RegenAt;
use crate::systems::trinites::duel::{unpaired, weapon_list, Penalty, Prime, PENALTIES, PRIMES};

use super::keys::{self, Tactic};
use super::pairs::{self, PairsSpec};
use super::raw::{RawGroup, RawSkirmish};

/// Most combatants in one skirmish (after `count`): fixed so a fight allocates nothing.
pub const COMBATANTS_MAX: usize = 16;
/// Most combatants in one group.
pub const COUNT_MAX: i64 = 8;
/// Most sides.
pub const SIDES_MAX: usize = 4;
/// Most rounds before a skirmish stops undecided.
pub const ROUNDS_MAX: i64 = 100;
/// Most trials of one run.
pub const TRIALS_MAX: u64 = 50_000_000;
/// Farthest post from the mêlée, and longest weapon range, in metres.
pub const DISTANCE_MAX: i64 = 500;
/// Skills and difficulties: the range the tables cover.
pub const SKILL_MIN: i64 = -12;
pub const SKILL_MAX: i64 = 24;

/// Cover (Tirer, "Couverture"): the shooter's difficulty against a covered target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cover {
    None,
    Kneeling,
    Prone,
    Lamppost,
    HumanShield,
    HeadOnly,
}

/// Every cover with its file name and difficulty (Tirer, Couverture: à genoux -1, à plat
/// ventre -2, debout derrière un lampadaire -3, bouclier humain -4, seule la tête est
/// visible -5; "entièrement caché: impossible" is not a cover one can shoot at).
pub const COVERS: [(Cover, &str, i64); 6] = [
    (Cover::None, "none", 0),
    (Cover::Kneeling, "kneeling", -1),
    (Cover::Prone, "prone", -2),
    (Cover::Lamppost, "lamppost", -3),
    (Cover::HumanShield, "human_shield", -4),
    (Cover::HeadOnly, "head_only", -5),
];

impl Cover {
    pub fn name(self) -> &'static str {
        COVERS.iter().find(|c| c.0 == self).map_or("none", |c| c.1)
    }

    /// Difficulty a shot at a target behind this cover takes.
    pub fn difficulty(self) -> i64 {
        COVERS.iter().find(|c| c.0 == self).map_or(0, |c| c.2)
    }
}

/// Whom a combatant attacks among the foes it can reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Targeting {
    /// The foe with the most boxes ticked (focus fire; ties: file order).
    MostWounded,
    /// The first foe in file order.
    First,
}

/// One group's fighting profile: `Copy`, held by value in the simulation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    pub side: usize,
    pub trinite: bool,
    pub rapidite: i64,
    pub initiative_difficulty: i64,
    pub surprised: bool,
    pub attack: i64,
    pub reaction: i64,
    pub dodge: i64,
    pub athletics: i64,
    pub damage: i64,
    /// Metres; 0 for a melee weapon.
    pub range: i64,
    pub sword: bool,
    /// A ranged zone weapon (Tirer: half damage, rounded up, on a miss).
    pub zone: bool,
    /// Sum of the group's `circumstances` difficulties (Frapper / Tirer tables).
    pub circumstance: i64,
    pub protection: i64,
    pub attacks_per_turn: i64,
    pub prime: Prime,
    pub penalty: Penalty,
    /// Metres from the mêlée; 0 = in it.
    pub distance: i64,
    pub cover: Cover,
    pub target: Targeting,
    /// Light and Darkness points the Adam' may spend (0 for humans).
    pub light: i64,
    pub dark: i64,
    pub regenerate_at: RegenAt,
    /// The free action declared before the attacks (Feinter, Désarmer; issue 25).
    pub tactic: Tactic,
    /// Subterfuge (Feinter) and Tactique (the reaction to a feint).
    pub subterfuge: i64,
    pub tactics: i64,
    /// The pénalité of a disarm (an advanced action, l. 420).
    pub disarm_penalty: Penalty,
    /// The ally group this one parries for (l. 472), by index.
    pub parries_for: Option<usize>,
}

impl Profile {
    pub fn ranged(&self) -> bool {
        self.range > 0
    }

    // Boxes per life line: `TrinitesRules::line` (parameters `trinites_life_line_*`).
}

/// A named group.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub name: String,
    pub count: usize,
    pub weapon: String,
    pub profile: Profile,
    /// Corps à corps and damage of a bare-handed strike while disarmed (Frapper, l. 563);
    /// None: a disarmed fighter waits for his weapon. Apart from `profile`, which the
    /// fight copies and reads on every strike.
    pub bare_hands: Option<(i64, i64)>,
}

/// A validated skirmish.
#[derive(Clone, Debug, PartialEq)]
pub struct Skirmish {
    pub title: String,
    pub question: String,
    pub max_rounds: u32,
    pub strike_unconscious: bool,
    pub sides: Vec<String>,
    pub groups: Vec<Group>,
    /// Each combatant's group, in file order.
    pub group_of: Vec<usize>,
    /// Each combatant's name: the group's, numbered when the group has several.
    pub names: Vec<String>,
    /// `[pairs]`: one group's prime/pénalité pairs to compare, if asked.
    pub pairs: Option<PairsSpec>,
    pub run: RunSection,
    pub rules: BTreeMap<String, toml::Value>,
}

fn names_of<T>(list: &[(T, &str)]) -> String {
    list.iter()
        .map(|p| format!("\"{}\"", p.1))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The (prime, pénalité) of a group: both `none` or both set; `abandon_position` only for a
/// group in cover (PRIMES & PÉNALITÉS: the pénalité must be an effective hindrance).
fn pair(
    f: &ScenarioFile,
    g: &RawGroup,
    i: usize,
    cover: Cover,
) -> Result<(Prime, Penalty), UserError> {
    let idx = i.to_string();
    let prime = g.prime.as_deref().unwrap_or("none");
    let penalty = g.penalty.as_deref().unwrap_or("none");
    let p = Prime::parse(prime).ok_or_else(|| {
        f.error_at(
            &["group", &idx, "prime"],
            &format!("group[{i}].prime"),
            &tr!(f.lang, "trinites.model.unknown_prime", prime),
            &names_of(&PRIMES),
        )
    })?;
    let penalties = tr!(
        f.lang,
        "trinites.model.penalties_allowed",
        names = names_of(&PENALTIES)
    );
    let q = match penalty {
        "abandon_position" if cover == Cover::None => {
            return Err(f.error_at(
                &["group", &idx, "penalty"],
                &format!("group[{i}].penalty"),
                tr!(f.lang, "trinites.pairs.abandon_needs_cover"),
                &tr!(
                    f.lang,
                    "trinites.model.abandon_allowed",
                    names = names_of(&PENALTIES)
                ),
            ))
        }
        "abandon_position" => Penalty::AbandonPosition,
        other => Penalty::parse(other).ok_or_else(|| {
            f.error_at(
                &["group", &idx, "penalty"],
                &format!("group[{i}].penalty"),
                &tr!(f.lang, "trinites.model.unknown_penalty", penalty = other),
                &penalties,
            )
        })?,
    };
    if (p == Prime::None) != (q == Penalty::None) {
        let key = if p == Prime::None { "prime" } else { "penalty" };
        let shown = format!("group[{i}].{key}");
        return Err(unpaired(f, &["group", &idx, key], &shown, prime, penalty));
    }
    Ok((p, q))
}

fn choice<T: Copy>(
    f: &ScenarioFile,
    path: &[&str],
    value: Option<&str>,
    default: T,
    allowed: &[(&str, T)],
) -> Result<T, UserError> {
    let Some(v) = value else { return Ok(default) };
    allowed
        .iter()
        .find(|a| a.0 == v)
        .map(|a| a.1)
        .ok_or_else(|| {
            let list: Vec<String> = allowed.iter().map(|a| format!("\"{}\"", a.0)).collect();
            f.error_at(
                path,
                &shown_key(path),
                &tr!(f.lang, "trinites.model.unknown_value", value = v),
                &list.join(", "),
            )
        })
}

fn group(
    f: &ScenarioFile,
    raw: &RawSkirmish,
    i: usize,
    sides: &mut Vec<String>,
) -> Result<Group, UserError> {
    let g = &raw.group[i];
    let idx = i.to_string();
    let path = |k: &'static str| -> [String; 3] { ["group".into(), idx.clone(), k.into()] };
    let int = |k: &'static str, v: i64, lo: i64, hi: i64| -> Result<i64, UserError> {
        let p = path(k);
        let p: Vec<&str> = p.iter().map(String::as_str).collect();
        int_in(f, &p, &shown_key(&p), v, lo, hi)
    };
    let skill = |k: &'static str, v: i64| int(k, v, SKILL_MIN, SKILL_MAX);
    if raw.group[..i].iter().any(|h| h.name == g.name) {
        return Err(f.error_at(
            &["group", &idx, "name"],
            &format!("group[{i}].name"),
            &tr!(f.lang, "trinites.model.group_twice", name = g.name),
            &tr!(
                f.lang,
                "trinites.model.group_twice_allowed",
                names = raw.group[..i]
                    .iter()
                    .map(|h| format!("\"{}\"", h.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    let side = match sides.iter().position(|s| *s == g.side) {
        Some(s) => s,
        None if sides.len() < SIDES_MAX => {
            sides.push(g.side.clone());
            sides.len() - 1
        }
        None => {
            return Err(f.error_at(
                &["group", &idx, "side"],
                &format!("group[{i}].side"),
                &tr!(f.lang, "trinites.model.fifth_side", side = g.side),
                &tr!(
                    f.lang,
                    "trinites.model.sides_allowed",
                    max = SIDES_MAX,
                    sides = sides.join(", ")
                ),
            ))
        }
    };
    let w = raw
        .weapons
        .iter()
        .find(|w| w.name == g.weapon)
        .ok_or_else(|| {
            let known: Vec<String> = raw
                .weapons
                .iter()
                .map(|w| format!("\"{}\"", w.name))
                .collect();
            f.error_at(
                &["group", &idx, "weapon"],
                &format!("group[{i}].weapon"),
                &tr!(f.lang, "trinites.model.undefined_weapon", name = g.weapon),
                &tr!(
                    f.lang,
                    "trinites.model.weapon_allowed",
                    names = known.join(", ")
                ),
            )
        })?;
    let cover = choice(
        f,
        &["group", &idx, "cover"],
        g.cover.as_deref(),
        Cover::None,
        &COVERS.map(|c| (c.1, c.0)),
    )?;
    let (prime, penalty) = pair(f, g, i, cover)?;
    // Frapper / Tirer circumstances (issue 25), Feinter / Désarmer (issue 25).
    let circumstance = keys::circumstance(f, g, i, w.range.is_some())?;
    let tk = keys::tactic_keys(f, g, i, w.range.is_some(), cover)?;
    let target = choice(
        f,
        &["group", &idx, "target"],
        g.target.as_deref(),
        Targeting::MostWounded,
        &[
            ("most_wounded", Targeting::MostWounded),
            ("first", Targeting::First),
        ],
    )?;
    // Karma keys belong to an Adam' only: a human has no Deva, Archonte or regeneration.
    for (key, set) in [
        ("deva_karma", g.deva_karma.is_some()),
        ("archonte_karma", g.archonte_karma.is_some()),
        ("regenerate_at", g.regenerate_at.is_some()),
    ] {
        if set && !g.trinite {
            return Err(f.error_at(
                &["group", &idx, key],
                &format!("group[{i}].{key}"),
                tr!(f.lang, "trinites.model.karma_adam_only"),
                tr!(f.lang, "trinites.model.karma_adam_only_allowed"),
            ));
        }
    }
    let regenerate_at = choice(
        f,
        &["group", &idx, "regenerate_at"],
        g.regenerate_at.as_deref(),
        RegenAt::Blesse,
        &[
            ("endolori", RegenAt::Endolori),
            ("blesse", RegenAt::Blesse),
            ("never", RegenAt::Never),
        ],
    )?;
    // LE KARMA: Deva and Archonte hold at most 12; the Adam's own Karma is their
    // difference, of the stronger one's kind (as in the duel).
    let deva = int("deva_karma", g.deva_karma.unwrap_or(0), 0, 12)?;
    let archonte = int("archonte_karma", g.archonte_karma.unwrap_or(0), 0, 12)?;
    let profile = Profile {
        side,
        trinite: g.trinite,
        rapidite: skill("rapidite", g.rapidite)?,
        initiative_difficulty: int(
            "initiative_difficulty",
            g.initiative_difficulty.unwrap_or(0),
            -12,
            12,
        )?,
        surprised: g.surprised.unwrap_or(false),
        attack: skill("attack", g.attack)?,
        reaction: skill("reaction", g.reaction)?,
        dodge: skill("dodge", g.dodge.unwrap_or(g.reaction))?,
        athletics: skill("athletics", g.athletics.unwrap_or(0))?,
        damage: w.damage,
        range: w.range.unwrap_or(0),
        sword: w.sword,
        zone: w.zone && w.range.is_some(),
        circumstance,
        protection: int("protection", g.protection.unwrap_or(0), 0, 30)?,
        attacks_per_turn: int("attacks_per_turn", g.attacks_per_turn.unwrap_or(1), 1, 4)?,
        prime,
        penalty,
        distance: int("distance", g.distance.unwrap_or(0), 0, DISTANCE_MAX)?,
        cover,
        target,
        light: deva + (deva - archonte).max(0),
        dark: archonte + (archonte - deva).max(0),
        regenerate_at: if g.trinite {
            regenerate_at
        } else {
            RegenAt::Never
        },
        tactic: tk.tactic,
        subterfuge: tk.subterfuge,
        tactics: tk.tactics,
        disarm_penalty: tk.disarm_penalty,
        parries_for: None,
    };
    Ok(Group {
        name: g.name.clone(),
        count: int("count", g.count.unwrap_or(1), 1, COUNT_MAX)? as usize,
        weapon: w.name.clone(),
        profile,
        bare_hands: keys::bare_hands(f, g, i, w.range.is_some())?,
    })
}

/// Validates the raw file into a [`Skirmish`]; every error is located in the file.
pub fn validate(f: &ScenarioFile, raw: RawSkirmish) -> Result<Skirmish, UserError> {
    weapon_list(
        f,
        &raw.weapons,
        |w| &w.name,
        |idx, w| {
            int_in(
                f,
                &["weapons", idx, "damage"],
                &format!("weapons[{idx}].damage"),
                w.damage,
                0,
                50,
            )?;
            if let Some(r) = w.range {
                int_in(
                    f,
                    &["weapons", idx, "range"],
                    &format!("weapons[{idx}].range"),
                    r,
                    1,
                    DISTANCE_MAX,
                )?;
            }
            Ok(())
        },
    )?;
    if raw.group.is_empty() {
        return Err(f.error_at(
            &["group"],
            "group",
            tr!(f.lang, "trinites.model.no_group"),
            tr!(f.lang, "trinites.model.no_group_allowed"),
        ));
    }
    let mut sides = Vec::new();
    let mut groups = Vec::new();
    let mut total = 0usize;
    for i in 0..raw.group.len() {
        let g = group(f, &raw, i, &mut sides)?;
        total += g.count;
        if total > COMBATANTS_MAX {
            let idx = i.to_string();
            return Err(f.error_at(
                &["group", &idx, "count"],
                &format!("group[{i}].count"),
                &tr!(f.lang, "trinites.model.combatants", n = total),
                &tr!(
                    f.lang,
                    "trinites.model.combatants_allowed",
                    max = COMBATANTS_MAX
                ),
            ));
        }
        groups.push(g);
    }
    keys::parries_for(f, &raw, &mut groups)?;
    if sides.len() < 2 {
        return Err(f.error_at(
            &["group", "0", "side"],
            "group[0].side",
            &tr!(f.lang, "trinites.model.one_side", side = sides[0]),
            tr!(f.lang, "trinites.model.one_side_allowed"),
        ));
    }
    // A shooter none of whose foes is within three times its range at the start can only
    // wait for them to come: valid, but likely a typo in a distance or a range.
    for (i, g) in groups.iter().enumerate() {
        let p = &g.profile;
        if p.ranged()
            && !groups
                .iter()
                .filter(|h| h.profile.side != p.side)
                .any(|h| p.distance + h.profile.distance <= 3 * p.range)
        {
            let idx = i.to_string();
            f.warn_at(
                &["group", &idx, "distance"],
                &format!("group[{i}].distance"),
                tr!(f.lang, "trinites.model.no_foe_in_range"),
            );
        }
    }
    let max_rounds = int_at(
        f,
        &["combat", "max_rounds"],
        raw.combat.max_rounds.unwrap_or(30),
        1,
        ROUNDS_MAX,
    )? as u32;
    let mut group_of = Vec::new();
    let mut names = Vec::new();
    for (gi, g) in groups.iter().enumerate() {
        for k in 0..g.count {
            group_of.push(gi);
            names.push(if g.count == 1 {
                g.name.clone()
            } else {
                format!("{}_{}", g.name, k + 1)
            });
        }
    }
    Ok(Skirmish {
        title: crate::scenario::Text::pick(raw.title, f.lang)
            .unwrap_or_else(|| tr!(f.lang, "trinites.model.skirmish_title").into()),
        question: crate::scenario::Text::pick(raw.question, f.lang)
            .unwrap_or_else(|| tr!(f.lang, "trinites.model.skirmish_question").into()),
        max_rounds,
        strike_unconscious: raw.combat.strike_unconscious.unwrap_or(false),
        sides,
        groups,
        group_of,
        names,
        pairs: None,
        run: raw.run,
        rules: raw.rules,
    })
}

/// A skirmish given as text, loaded: the one way the skirmish tests build a model.
#[cfg(test)]
pub(super) fn load_text(path: &str, text: &str) -> Skirmish {
    load(&ScenarioFile::from_text(path, text, crate::lang::Lang::En)).unwrap()
}

/// Reads and validates a skirmish file (the one validation `check` and `run` share).
pub fn load(file: &ScenarioFile) -> Result<Skirmish, UserError> {
    let raw: RawSkirmish = file.parse_raw_hinted(&crate::systems::trinites::missing::skirmish)?;
    let raw_pairs = raw.pairs.clone();
    let mut m = validate(file, raw)?;
    if let Some(p) = raw_pairs {
        m.pairs = Some(pairs::validate(file, &p, &m)?);
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_paths_index_arrays() {
        assert_eq!(shown_key(&["group", "1", "dodge"]), "group[1].dodge");
        assert_eq!(shown_key(&["combat", "max_rounds"]), "combat.max_rounds");
    }

    #[test]
    fn cover_difficulties_follow_the_table() {
        // Tirer, Couverture (T-COMBAT): à genoux -1 ... seule la tête -5.
        let d: Vec<i64> = COVERS.iter().map(|c| c.0.difficulty()).collect();
        assert_eq!(d, vec![0, -1, -2, -3, -4, -5]);
        assert_eq!(Cover::HeadOnly.name(), "head_only");
    }
}
