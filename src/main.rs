//! The `dicetable` binary: parses the command line and hands over to the library.

use clap::Parser;

fn main() -> std::process::ExitCode {
    dicetable::cli::run(dicetable::cli::Cli::parse())
}
