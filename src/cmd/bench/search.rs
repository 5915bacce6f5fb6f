use crate::cmd::CliError;

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> Result<(), CliError> {
    Err(CliError::failed("not yet implemented"))
}
