//! The header every scenario file shares, written once: `system`, `kind`, `title`,
//! `question`, `lang`, `[run]` and `[rules]` come before a kind's own sections in its raw
//! serde shape (issue 23: the framework owns the header). A macro rather than a flattened
//! struct, because serde refuses `flatten` with `deny_unknown_fields`, and an unknown key
//! must stay an error that names the file, line and key.

/// Declares a kind's raw file shape: the shared header fields, then the kind's own. The
/// struct is `Deserialize` with `deny_unknown_fields`; write its other derives and its own
/// fields as usual.
///
/// The dispatcher reads `system` and `kind` (`ScenarioFile::header`) and the command reads
/// `lang` before validation; they are accepted here so the file stays one shape.
macro_rules! raw_scenario {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($(#[$fmeta:meta])* $fvis:vis $field:ident : $ty:ty),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[serde(deny_unknown_fields)]
        $vis struct $name {
            #[allow(dead_code)]
            pub system: String,
            #[allow(dead_code)]
            pub kind: Option<String>,
            #[serde(default)]
            pub title: Option<crate::scenario::Text>,
            #[serde(default)]
            pub question: Option<crate::scenario::Text>,
            #[allow(dead_code)]
            pub lang: Option<String>,
            #[serde(default)]
            pub run: crate::scenario::RunSection,
            #[serde(default)]
            pub rules: std::collections::BTreeMap<String, toml::Value>,
            $($(#[$fmeta])* $fvis $field: $ty),*
        }
    };
}

pub(crate) use raw_scenario;

/// Declares a group of keys' raw shape and the shapes that restate them: each entry writes
/// `..` where the group's keys stand among its own (`[[expedition.changes]]` repeats
/// `[expedition.day]`, `[[leveling.schedule]]` repeats `[leveling.later]`, the Trinités
/// duel's `[adam]` and `[humans]` share a profile). Every shape is `deny_unknown_fields`
/// with its keys in the order written, and an entry's `keys()` gives back the group, so
/// one validation serves all. A macro for the same reason as `raw_scenario!`: `flatten`
/// would lose the refusal of unknown keys.
macro_rules! raw_restated {
    (@entries $base:ident [$($shared:tt)*] [$($field:ident)*]) => {};
    (
        @entries $base:ident [$($shared:tt)*] [$($field:ident)*]
        $(#[$emeta:meta])*
        $evis:vis struct $entry:ident {
            $($(#[$bmeta:meta])* pub $before:ident : $bty:ty,)*
            ..
            $(, $(#[$ameta:meta])* pub $after:ident : $aty:ty)* $(,)?
        }
        $($rest:tt)*
    ) => {
        $(#[$emeta])*
        #[serde(deny_unknown_fields)]
        $evis struct $entry {
            $($(#[$bmeta])* pub $before: $bty,)*
            $($shared)*
            $($(#[$ameta])* pub $after: $aty,)*
        }
        impl $entry {
            /// The keys it shares with the others of its group.
            pub fn keys(&self) -> $base {
                $base {
                    $($field: self.$field.clone()),*
                }
            }
        }
        $crate::scenario::raw_restated!(@entries $base [$($shared)*] [$($field)*] $($rest)*);
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $base:ident {
            $($(#[$fmeta:meta])* pub $field:ident : $ty:ty),* $(,)?
        }
        $($entries:tt)*
    ) => {
        $(#[$meta])*
        #[serde(deny_unknown_fields)]
        $vis struct $base {
            $($(#[$fmeta])* pub $field: $ty),*
        }
        $crate::scenario::raw_restated!(
            @entries $base [$($(#[$fmeta])* pub $field: $ty,)*] [$($field)*] $($entries)*
        );
    };
}

pub(crate) use raw_restated;

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    raw_scenario! {
        #[derive(Debug, Deserialize)]
        struct Toy {
            #[serde(default)]
            pub extra: i64,
        }
    }

    #[test]
    fn the_header_comes_with_every_kind_and_unknown_keys_stay_refused() {
        let t: Toy = toml::from_str(
            "system = \"s\"\nkind = \"k\"\ntitle = { en = \"T\", fr = \"U\" }\nlang = \"fr\"\nextra = 3\n[run]\ntrials = 5\n[rules]\nx = 1\n",
        )
        .unwrap();
        assert_eq!(
            (t.system.as_str(), t.kind.as_deref(), t.extra),
            ("s", Some("k"), 3)
        );
        assert_eq!(t.run.trials, Some(5));
        assert!(t.rules.contains_key("x") && t.title.is_some() && t.question.is_none());
        let e = toml::from_str::<Toy>("system = \"s\"\nunknown = 1\n").unwrap_err();
        assert!(e.to_string().contains("unknown field `unknown`"), "{e}");
    }

    raw_restated! {
        #[derive(Debug, Deserialize)]
        struct Shared {
            pub a: i64,
        }
        #[derive(Debug, Deserialize)]
        struct Entry {
            pub first: i64,
            ..,
            pub last: Option<i64>,
        }
    }

    #[test]
    fn an_entry_restates_the_shared_keys_in_place_and_refuses_others() {
        let e: Entry = toml::from_str("first = 1\na = 2\n").unwrap();
        assert_eq!((e.first, e.keys().a, e.last), (1, 2, None));
        let err = toml::from_str::<Entry>("first = 1\na = 2\nb = 3\n").unwrap_err();
        assert!(
            err.to_string()
                .contains("expected one of `first`, `a`, `last`"),
            "{err}"
        );
    }
}
