//! The tools' last-resort guard: command-line errors and panics become a
//! message on stderr and exit code 1 (never clap's 2, never Rust's 101, never
//! an abort), and no partial output is left behind (outputs are written to a
//! temporary file renamed into place at the very end, see [`crate::output`]).

use std::{
    io::Write,
    panic::{self, AssertUnwindSafe},
    process::ExitCode,
    sync::Mutex,
};

/// What the panic hook saw last: the message and where it was raised.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// The text of a panic payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// Installs a panic hook that records the message and its source location
/// instead of printing Rust's default text (the tools print one clean line).
/// `RUST_BACKTRACE` set: the default hook runs too, for debugging.
pub fn install_panic_hook() {
    let default = panic::take_hook();
    let verbose = std::env::var_os("RUST_BACKTRACE").is_some_and(|v| v != "0");
    panic::set_hook(Box::new(move |info| {
        let message = panic_message(info.payload());
        let text = match info.location() {
            Some(at) => format!("{message} (at {}:{})", at.file(), at.line()),
            None => message,
        };
        if let Ok(mut last) = LAST_PANIC.lock() {
            *last = Some(text);
        }
        if verbose {
            default(info);
        }
    }));
}

/// The recorded text of the last panic (with its location), or the payload's.
pub fn take_panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    LAST_PANIC.lock().ok().and_then(|mut last| last.take()).unwrap_or_else(|| panic_message(payload))
}

/// Parses the command line with clap, mapping clap's exit code 2 to 1:
/// `--help` and `--version` print and exit 0, every flag error exits 1.
pub fn parse_args<T: clap::Parser>() -> Result<T, ExitCode> {
    parse_args_from(std::env::args_os())
}

/// [`parse_args`] over `args` (the first is the program name).
pub fn parse_args_from<T: clap::Parser, I, S>(args: I) -> Result<T, ExitCode>
where
    I: IntoIterator<Item = S>,
    S: Into<std::ffi::OsString> + Clone,
{
    match T::try_parse_from(args) {
        Ok(args) => Ok(args),
        Err(error) => {
            let _ = error.print();
            Err(if error.use_stderr() { ExitCode::FAILURE } else { ExitCode::SUCCESS })
        }
    }
}

/// Runs `body` (the whole tool) with panics caught: a panic prints
/// `<tool>: internal error while processing <input>: <message>` and exits 1.
pub fn run(tool: &str, input: &str, body: impl FnOnce() -> Result<(), String>) -> ExitCode {
    install_panic_hook();
    match panic::catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(message)) => {
            // Not eprintln!: a closed stderr must not turn into a panic.
            let _ = writeln!(std::io::stderr(), "{tool}: {message}");
            ExitCode::FAILURE
        }
        Err(payload) => {
            crate::progress::finish();
            let text = take_panic_text(payload.as_ref());
            eprintln!("{tool}: {input}: internal error (a bug in {tool}, please report it with this input): {text}");
            // Temporary outputs are removed by their guards while unwinding.
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_exit_code_1() {
        let code = run("tool", "input.pt2", || panic!("boom"));
        assert_eq!(format!("{code:?}"), format!("{:?}", ExitCode::FAILURE));
        let code = run("tool", "input.pt2", || Err("bad input".into()));
        assert_eq!(format!("{code:?}"), format!("{:?}", ExitCode::FAILURE));
        let code = run("tool", "input.pt2", || Ok(()));
        assert_eq!(format!("{code:?}"), format!("{:?}", ExitCode::SUCCESS));
    }
}
