use crate::cli::TableCommand;

/// `cosmosim table <name>`: each system computes and writes its own tables.
pub fn table(cmd: &TableCommand, quiet: bool) -> anyhow::Result<()> {
    match cmd {
        TableCommand::Cosmos(t) => t.run(quiet),
        TableCommand::Nephilim(t) => t.run(quiet),
        TableCommand::Fallout(t) => t.run(quiet),
        TableCommand::Trinites(t) => t.run(quiet),
        TableCommand::CosmosGrowth(t) => t.run(quiet),
    }
}
