//! `dicetable package-files DIR` (hidden): the manual pages and shell completions, made from the
//! command line's own definition (clap_mangen, clap_complete), for the packages
//! (`scripts/package.sh`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::CommandFactory;

use super::Cli;

/// Arguments of `package-files`.
#[derive(clap::Args, Debug)]
pub struct PackageFilesArgs {
    /// Where to write `man/man1/*.1` and `completions/` (bash, zsh, fish).
    pub out: PathBuf,
}

/// Writes the manual pages (`dicetable.1` and one a command, `dicetable-serve.1`…) and the
/// completions.
pub fn run(args: &PackageFilesArgs) -> ExitCode {
    match write_all(&args.out) {
        Ok(n) => {
            println!("wrote {n} files under {}", args.out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write under {}: {e}", args.out.display());
            ExitCode::from(2)
        }
    }
}

fn write_all(out: &Path) -> std::io::Result<usize> {
    let man = out.join("man/man1");
    let completions = out.join("completions");
    std::fs::create_dir_all(&man)?;
    std::fs::create_dir_all(&completions)?;
    let mut cmd = Cli::command();
    cmd.build();
    let mut written = 0;
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut page)?;
    std::fs::write(man.join("dicetable.1"), &page)?;
    written += 1;
    for sub in cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
    {
        let name = format!("dicetable-{}", sub.get_name());
        let mut page = Vec::new();
        clap_mangen::Man::new(sub.clone().name(name.clone())).render(&mut page)?;
        std::fs::write(man.join(format!("{name}.1")), &page)?;
        written += 1;
    }
    for (shell, file) in [
        (clap_complete::Shell::Bash, "dicetable.bash"),
        (clap_complete::Shell::Zsh, "_dicetable"),
        (clap_complete::Shell::Fish, "dicetable.fish"),
    ] {
        let mut text = Vec::new();
        clap_complete::generate(shell, &mut cmd, "dicetable", &mut text);
        std::fs::write(completions.join(file), &text)?;
        written += 1;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pages_and_completions_name_every_command() {
        let out = std::env::temp_dir().join(format!("dicetable-pkg-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let n = write_all(&out).expect("written");
        let serve =
            std::fs::read_to_string(out.join("man/man1/dicetable-serve.1")).expect("a page");
        assert!(serve.contains("tls\\-cert"), "{serve}");
        let bash = std::fs::read_to_string(out.join("completions/dicetable.bash")).expect("bash");
        for command in ["serve", "verify", "roll", "odds"] {
            assert!(bash.contains(command), "{command}");
            assert!(
                out.join(format!("man/man1/dicetable-{command}.1"))
                    .is_file(),
                "{command}"
            );
        }
        assert!(
            !out.join("man/man1/dicetable-package-files.1").exists(),
            "hidden"
        );
        assert_eq!(
            n,
            std::fs::read_dir(out.join("man/man1"))
                .expect("dir")
                .count()
                + 3
        );
        let _ = std::fs::remove_dir_all(&out);
    }
}
