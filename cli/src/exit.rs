//! How a command ends: errors are rendered here, once, as `error[code]: message`, and
//! mapped to exit codes: 0 success, 1 a failure (the input was wrong, a check failed, a file
//! could not be read or written), 2 a usage error (the command line asked for something that
//! is not there: an unknown command, flag, game, variant or agent, a value out of range).
//! The README's exit-code table says the same and is tested against the binary.

use std::io;
use std::process::ExitCode;

use crate::render::escape;

/// Exit code of a failure.
pub const FAILURE: u8 = 1;
/// Exit code of a usage error.
pub const USAGE: u8 = 2;

#[derive(Debug)]
pub enum CliError {
    /// The input was wrong or an operation failed: exit 1.
    Failure { code: &'static str, message: String },
    /// The command line was wrong: exit 2.
    Usage { code: &'static str, message: String },
    /// Diagnostics already rendered, each with its own `error[code]:` line; `usage` when
    /// they say the command line named something that is not there (exit 2, else 1).
    Rendered { text: String, usage: bool },
    /// The problem was already reported in full; just exit 1.
    Reported,
    /// Writing the output (or reading the terminal) failed.
    Io(io::Error),
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError::Io(e)
    }
}

pub type CliResult = Result<(), CliError>;

/// A failure (exit 1) with a code that says what went wrong (`cannot-read`, `bad-replay`).
pub fn failure(code: &'static str, message: impl Into<String>) -> CliError {
    CliError::Failure {
        code,
        message: message.into(),
    }
}

/// A usage error (exit 2) with a code that says what went wrong (`players-out-of-range`).
pub fn usage(code: &'static str, message: impl Into<String>) -> CliError {
    CliError::Usage {
        code,
        message: message.into(),
    }
}

/// A failure without a more precise code.
pub fn input(message: impl Into<String>) -> CliError {
    failure("bad-input", message)
}

impl CliError {
    /// The exit code this error ends the command with.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage { .. } | CliError::Rendered { usage: true, .. } => USAGE,
            // The reader went away (`grail lint | head`): nothing went wrong for the user.
            CliError::Io(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
            _ => FAILURE,
        }
    }

    /// The code of the error, as `error[code]:` shows it (`None`: nothing is printed, or
    /// the rendered diagnostics carry their own).
    pub fn code(&self) -> Option<&'static str> {
        match self {
            CliError::Failure { code, .. } | CliError::Usage { code, .. } => Some(code),
            CliError::Io(e) if e.kind() != io::ErrorKind::BrokenPipe => Some("io"),
            _ => None,
        }
    }

    /// What is printed on stderr, ending in a newline; empty when nothing is.
    pub fn to_text(&self) -> String {
        // Messages quote input (a move, a file's text): never raw onto the terminal.
        match self {
            CliError::Failure { code, message } | CliError::Usage { code, message } => {
                format!("error[{code}]: {}\n", escape(message))
            }
            CliError::Rendered { text, .. } => format!("{}\n", text.trim_end()),
            CliError::Reported => String::new(),
            CliError::Io(e) if e.kind() == io::ErrorKind::BrokenPipe => String::new(),
            CliError::Io(e) => format!("error[io]: cannot write the output: {e}\n"),
        }
    }
}

/// As printed: `error[code]: message` (empty for an error already reported).
impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.to_text().trim_end())
    }
}

impl std::error::Error for CliError {}

pub fn finish(result: CliResult) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A closed stderr is no reason to panic.
            let _ = io::Write::write_all(&mut io::stderr(), e.to_text().as_bytes());
            ExitCode::from(e.exit_code())
        }
    }
}
