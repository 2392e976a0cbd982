//! A progress bar on stderr for conversions that take longer than a second.
//!
//! One process-wide bar (the tools convert one model per process), driven by
//! the conversion steps: [`stage`] names what runs now (a spinner with the
//! elapsed time), [`bytes_total`] / [`bytes_written`] turn it into a bar while
//! the writer streams initializers. Nothing is drawn unless a tool called
//! [`enable`] (`aten-translate` does, unless `--quiet`), stderr is a terminal,
//! and the conversion is still running one second after it started: short
//! conversions, pipes, CI logs and the Python entry point never see it.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// How long a conversion runs before the bar appears.
const DELAY: Duration = Duration::from_secs(1);

static BAR: Mutex<Option<ProgressBar>> = Mutex::new(None);
static VISIBLE: AtomicBool = AtomicBool::new(false);

/// Starts the (still hidden) bar if stderr is a terminal and `quiet` is not
/// set; it shows itself after [`DELAY`] unless [`finish`] came first.
pub fn enable(quiet: bool) {
    if quiet || !std::io::stderr().is_terminal() {
        return;
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
    bar.set_style(spinner_style());
    *BAR.lock().unwrap_or_else(|e| e.into_inner()) = Some(bar.clone());
    std::thread::spawn(move || {
        std::thread::sleep(DELAY);
        let guard = BAR.lock().unwrap_or_else(|e| e.into_inner());
        if guard.is_some() && !bar.is_finished() {
            bar.set_draw_target(ProgressDrawTarget::stderr());
            bar.enable_steady_tick(Duration::from_millis(100));
            VISIBLE.store(true, Ordering::Relaxed);
        }
    });
}

fn spinner_style() -> ProgressStyle {
    ProgressStyle::with_template("{spinner} [{elapsed}] {msg}").unwrap_or_else(|_| ProgressStyle::default_spinner())
}

fn with_bar(f: impl FnOnce(&ProgressBar)) {
    if let Some(bar) = BAR.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
        f(bar);
    }
}

/// The step that runs now ("loading model.pt2", "running the passes", ...).
pub fn stage(message: impl Into<String>) {
    let message = message.into();
    with_bar(|bar| {
        bar.set_style(spinner_style());
        bar.set_length(0);
        bar.set_message(message);
    });
}

/// The writer is about to stream `total` bytes (the model and its data file).
pub fn bytes_total(message: impl Into<String>, total: u64) {
    let message = message.into();
    with_bar(|bar| {
        let style =
            ProgressStyle::with_template("{spinner} [{elapsed}] {msg} {wide_bar} {bytes}/{total_bytes} ({eta})")
                .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        bar.set_length(total);
        bar.set_position(0);
        bar.set_message(message);
    });
}

/// `n` more bytes are written.
pub fn bytes_written(n: u64) {
    with_bar(|bar| bar.inc(n));
}

/// Removes the bar (the conversion is over, successfully or not).
pub fn finish() {
    if let Some(bar) = BAR.lock().unwrap_or_else(|e| e.into_inner()).take() {
        bar.finish_and_clear();
    }
}

/// Whether the bar was drawn (for tests and the report).
pub fn was_visible() -> bool {
    VISIBLE.load(Ordering::Relaxed)
}
