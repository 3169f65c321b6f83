use crate::rules::registry;

/// The rule options, one block each, for `cosmosim options`.
pub fn list_options() -> String {
    let mut s = String::from("Rule options (set with --option key=value):\n");
    for o in registry() {
        s += &format!(
            "\n  {}  [{}]\n    default: {}\n    allowed: {}\n    {}\n",
            o.key,
            o.decision,
            o.default,
            o.allowed.describe(),
            o.help
        );
    }
    s
}
