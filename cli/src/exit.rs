//! How a command ends: errors are rendered here, once, and mapped to exit codes
//! (0 success, 1 the input was wrong, 2 usage error).

use std::io;
use std::process::ExitCode;

use crate::render::escape;

#[derive(Debug)]
pub enum CliError {
    /// The input was wrong (a file, a move, a failed check): exit 1.
    Input(String),
    /// The command line was wrong in a way clap could not see: exit 2.
    Usage(String),
    /// The problem was already reported in full; just exit 1.
    Reported,
    Io(io::Error),
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError::Io(e)
    }
}

pub type CliResult = Result<(), CliError>;

pub fn input(message: impl Into<String>) -> CliError {
    CliError::Input(message.into())
}

pub fn finish(result: CliResult) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // Messages quote input (a move, a file's text): never raw onto the terminal.
        Err(CliError::Input(m)) => {
            eprintln!("error: {}", escape(&m));
            ExitCode::from(1)
        }
        Err(CliError::Usage(m)) => {
            eprintln!("error: {}", escape(&m));
            ExitCode::from(2)
        }
        Err(CliError::Reported) => ExitCode::from(1),
        // The reader went away (`grail sim | head`): nothing left to say.
        Err(CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(CliError::Io(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(1)
        }
    }
}
