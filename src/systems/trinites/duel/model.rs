//! The duel scenario validated: [`RawDuel`] (`raw.rs`) checked into [`Duel`].

use std::collections::BTreeMap;

use crate::error::UserError;
use crate::scenario::{RunSection, ScenarioFile};

use super::primes::{Penalty, Prime, PENALTIES, PRIMES};
use super::raw::{RawDuel, RawSide, RawWeapon};

/// Humans at most in one duel (fixed so a fight allocates nothing).
pub const MAX_HUMANS: usize = 8;
/// Life boxes per line in the book: "4 cases par ligne de vie" for humans, "8 cases" for
/// an Adam' (trinites.fr.txt l. 169; T-LIFE). The runs read the parameters
/// `trinites_life_line_human` / `_adam` (`TrinitesRules::line`).
pub const ADAM_LINE: i64 = 8;
pub const HUMAN_LINE: i64 = 4;

/// When the conscious Adam' spends Karma to regenerate on his turn (T-LIFE; the duel and
/// the skirmish).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegenAt {
    /// As soon as a box is ticked.
    Endolori,
    /// Once a box of the second line is ticked.
    Blesse,
    Never,
}

/// One side's fighting profile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fighter {
    pub rapidite: i64,
    pub attack: i64,
    pub reaction: i64,
    pub initiative_difficulty: i64,
    pub damage: i64,
    pub sword: bool,
    pub protection: i64,
    pub attacks_per_turn: i64,
    pub prime: Prime,
    pub penalty: Penalty,
}

/// Everything a fight needs: `Copy`, so a simulation holds it by value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Combat {
    pub adam: Fighter,
    pub humans: Fighter,
    pub count: usize,
    /// Light points the Adam' may spend (Deva + the Adam's own Light Karma).
    pub light: i64,
    /// Darkness points (Archonte + the Adam's own Darkness Karma).
    pub dark: i64,
    pub regenerate_at: RegenAt,
    pub max_rounds: u32,
    pub strike_unconscious: bool,
}

/// A validated duel scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Duel {
    pub title: String,
    pub question: String,
    pub combat: Combat,
    /// The Adam's (prime, pénalité) pairs to compare; the first is the reference.
    pub pairs: Vec<(Prime, Penalty)>,
    pub run: RunSection,
    pub rules: BTreeMap<String, toml::Value>,
}

fn range(f: &ScenarioFile, path: &[&str], v: i64, lo: i64, hi: i64) -> Result<i64, UserError> {
    if v < lo || v > hi {
        return Err(f.error_at(
            path,
            &path.join("."),
            &tr!(f.lang, "trinites.model.out_of_range", v),
            &format!("{lo}..{hi}"),
        ));
    }
    Ok(v)
}

fn weapon<'a>(
    f: &ScenarioFile,
    weapons: &'a [RawWeapon],
    side: &str,
    name: &str,
) -> Result<&'a RawWeapon, UserError> {
    weapons.iter().find(|w| w.name == name).ok_or_else(|| {
        let known: Vec<String> = weapons.iter().map(|w| format!("\"{}\"", w.name)).collect();
        f.error_at(
            &[side, "weapon"],
            &format!("{side}.weapon"),
            &tr!(f.lang, "trinites.model.undefined_weapon", name),
            &tr!(
                f.lang,
                "trinites.model.weapon_allowed",
                names = known.join(", ")
            ),
        )
    })
}

fn prime_names() -> String {
    PRIMES.iter().map(|p| p.1).collect::<Vec<_>>().join(", ")
}

fn penalty_names() -> String {
    PENALTIES.iter().map(|p| p.1).collect::<Vec<_>>().join(", ")
}

/// A (prime, pénalité) pair at `path`: both `none` or both set (PRIMES & PÉNALITÉS: a prime
/// always comes with a pénalité).
fn pair(
    f: &ScenarioFile,
    path: &[&str],
    shown: &str,
    prime: &str,
    penalty: &str,
) -> Result<(Prime, Penalty), UserError> {
    let p = Prime::parse(prime).ok_or_else(|| {
        f.error_at(
            path,
            shown,
            &tr!(f.lang, "trinites.model.unknown_prime", prime),
            &prime_names(),
        )
    })?;
    let q = Penalty::parse(penalty).ok_or_else(|| {
        let why = if penalty == "abandon_position" {
            tr!(f.lang, "trinites.model.abandon_in_duel").to_string()
        } else {
            tr!(f.lang, "trinites.model.unknown_penalty", penalty)
        };
        f.error_at(path, shown, &why, &penalty_names())
    })?;
    if (p == Prime::None) != (q == Penalty::None) {
        return Err(unpaired(f, path, shown, prime, penalty));
    }
    Ok((p, q))
}

/// A prime without its pénalité or the other way round, in both fights.
pub fn unpaired(
    f: &ScenarioFile,
    path: &[&str],
    shown: &str,
    prime: &str,
    penalty: &str,
) -> UserError {
    let why = tr!(
        f.lang,
        "trinites.model.prime_without_penalty",
        prime,
        penalty
    );
    f.error_at(
        path,
        shown,
        &why,
        tr!(f.lang, "trinites.model.prime_without_penalty_allowed"),
    )
}

/// Every (prime, pénalité) pair, `none`/`none` first.
pub fn all_pairs() -> Vec<(Prime, Penalty)> {
    let mut v = vec![(Prime::None, Penalty::None)];
    for (p, _) in PRIMES.iter().skip(1) {
        for (q, _) in PENALTIES.iter().skip(1) {
            v.push((*p, *q));
        }
    }
    v
}

fn pairs(
    f: &ScenarioFile,
    value: Option<&toml::Value>,
) -> Result<Vec<(Prime, Penalty)>, UserError> {
    let allowed = tr!(f.lang, "trinites.model.pairs_allowed");
    pair_list(
        f,
        ["adam", "pairs"],
        value,
        allowed,
        all_pairs,
        |path, shown, p, q| pair(f, path, shown, p, q),
    )
}

/// A list of `[prime, pénalité]` pairs at `at` (`adam.pairs`, `pairs.list`): absent or
/// `"all"` gives `all()`, else each item is two words read by `read` (with its path and
/// shown key), no pair twice; `allowed` is what the errors offer.
pub fn pair_list(
    f: &ScenarioFile,
    at: [&str; 2],
    value: Option<&toml::Value>,
    allowed: &str,
    all: impl FnOnce() -> Vec<(Prime, Penalty)>,
    mut read: impl FnMut(&[&str], &str, &str, &str) -> Result<(Prime, Penalty), UserError>,
) -> Result<Vec<(Prime, Penalty)>, UserError> {
    let list = match value {
        None => return Ok(all()),
        Some(toml::Value::String(s)) if s == "all" => return Ok(all()),
        Some(toml::Value::Array(a)) if !a.is_empty() => a,
        Some(_) => {
            return Err(f.error_at(
                &at,
                &at.join("."),
                tr!(f.lang, "trinites.pairs.not_a_list"),
                allowed,
            ))
        }
    };
    let mut out = Vec::new();
    for (i, item) in list.iter().enumerate() {
        let idx = i.to_string();
        let path = [at[0], at[1], idx.as_str()];
        let shown = format!("{}.{}[{i}]", at[0], at[1]);
        let words: Vec<&str> = match item.as_array() {
            Some(a) if a.len() == 2 => a.iter().filter_map(|x| x.as_str()).collect(),
            _ => Vec::new(),
        };
        if words.len() != 2 {
            return Err(f.error_at(
                &path,
                &shown,
                tr!(f.lang, "trinites.pairs.expected_pair"),
                allowed,
            ));
        }
        let p = read(&path, &shown, words[0], words[1])?;
        if out.contains(&p) {
            return Err(f.error_at(
                &path,
                &shown,
                tr!(f.lang, "trinites.pairs.twice"),
                tr!(f.lang, "trinites.pairs.twice_allowed"),
            ));
        }
        out.push(p);
    }
    Ok(out)
}

/// The `[[weapons]]` list: at least one, each checked by `check` (with its index) before
/// its name is looked up among the earlier ones (no name twice).
pub fn weapon_list<W>(
    f: &ScenarioFile,
    weapons: &[W],
    name: impl Fn(&W) -> &String,
    mut check: impl FnMut(&str, &W) -> Result<(), UserError>,
) -> Result<(), UserError> {
    if weapons.is_empty() {
        return Err(f.error_at(
            &["weapons"],
            "weapons",
            tr!(f.lang, "trinites.model.no_weapon"),
            tr!(f.lang, "trinites.model.no_weapon_allowed"),
        ));
    }
    for (i, w) in weapons.iter().enumerate() {
        let idx = i.to_string();
        check(&idx, w)?;
        if weapons[..i].iter().any(|v| name(v) == name(w)) {
            return Err(f.error_at(
                &["weapons", &idx, "name"],
                &format!("weapons[{i}].name"),
                &tr!(f.lang, "trinites.model.weapon_twice", name = name(w)),
                tr!(f.lang, "trinites.model.weapon_twice_allowed"),
            ));
        }
    }
    Ok(())
}

/// Validates the raw file into a [`Duel`]; every error is located in the file.
pub fn validate(f: &ScenarioFile, raw: RawDuel) -> Result<Duel, UserError> {
    weapon_list(
        f,
        &raw.weapons,
        |w| &w.name,
        |idx, w| range(f, &["weapons", idx, "damage"], w.damage, 0, 50).map(drop),
    )?;
    let a = &raw.adam;
    let h = &raw.humans;
    let aw = weapon(f, &raw.weapons, "adam", &a.weapon)?;
    let hw = weapon(f, &raw.weapons, "humans", &h.weapon)?;
    // One side's profile: rapidite, attack, reaction, initiative_difficulty, protection and
    // attacks_per_turn, in that order of checking.
    let fighter = |side: &str, k: RawSide, w: &RawWeapon, prime, penalty| {
        let skill = |key: &str, v: i64| range(f, &[side, key], v, -12, 24);
        let initiative = k.initiative_difficulty;
        let attacks = k.attacks_per_turn.unwrap_or(1);
        Ok::<_, UserError>(Fighter {
            rapidite: skill("rapidite", k.rapidite)?,
            attack: skill("attack", k.attack)?,
            reaction: skill("reaction", k.reaction)?,
            initiative_difficulty: range(f, &[side, "initiative_difficulty"], initiative, -12, 12)?,
            damage: w.damage,
            sword: w.sword,
            protection: range(f, &[side, "protection"], k.protection, 0, 30)?,
            attacks_per_turn: range(f, &[side, "attacks_per_turn"], attacks, 1, 4)?,
            prime,
            penalty,
        })
    };
    let adam = fighter("adam", a.keys(), aw, Prime::None, Penalty::None)?;
    let (hp, hq) = pair(
        f,
        &["humans", "prime"],
        "humans.prime",
        h.prime.as_deref().unwrap_or("none"),
        h.penalty.as_deref().unwrap_or("none"),
    )?;
    let humans = fighter("humans", h.keys(), hw, hp, hq)?;
    let count = range(f, &["humans", "count"], h.count, 1, MAX_HUMANS as i64)? as usize;
    // LE KARMA: Deva and Archonte hold at most 12; the Adam's own Karma is their difference,
    // of the stronger one's kind.
    let deva = range(f, &["adam", "deva_karma"], a.deva_karma, 0, 12)?;
    let archonte = range(f, &["adam", "archonte_karma"], a.archonte_karma, 0, 12)?;
    let regenerate_at = match a.regenerate_at.as_deref().unwrap_or("blesse") {
        "endolori" => RegenAt::Endolori,
        "blesse" => RegenAt::Blesse,
        "never" => RegenAt::Never,
        other => {
            return Err(f.error_at(
                &["adam", "regenerate_at"],
                "adam.regenerate_at",
                &tr!(f.lang, "trinites.model.unknown_state", value = other),
                "\"endolori\", \"blesse\", \"never\"",
            ))
        }
    };
    let max_rounds = range(
        f,
        &["combat", "max_rounds"],
        raw.combat.max_rounds.unwrap_or(30),
        1,
        1000,
    )? as u32;
    let pairs = pairs(f, a.pairs.as_ref())?;
    Ok(Duel {
        title: crate::scenario::Text::pick(raw.title, f.lang)
            .unwrap_or_else(|| tr!(f.lang, "trinites.model.duel_title").into()),
        question: crate::scenario::Text::pick(raw.question, f.lang)
            .unwrap_or_else(|| tr!(f.lang, "trinites.model.duel_question").into()),
        combat: Combat {
            adam,
            humans,
            count,
            light: deva + (deva - archonte).max(0),
            dark: archonte + (archonte - deva).max(0),
            regenerate_at,
            max_rounds,
            strike_unconscious: raw.combat.strike_unconscious.unwrap_or(true),
        },
        pairs,
        run: raw.run,
        rules: raw.rules,
    })
}
