//! Ctrl-C during `grail play`. The save is whole after every move (`save.rs`), so an
//! interrupt needs no cleanup: the handler only says how to resume and exits (130, as a
//! shell reports SIGINT). It does only what a signal handler may: `write` and `_exit`.

use std::path::Path;
use std::sync::OnceLock;

static MESSAGE: OnceLock<Vec<u8>> = OnceLock::new();

/// From now on, Ctrl-C prints where the game is saved and how to continue it, then exits.
pub fn announce_save_on_interrupt(save: &Path) {
    let message = format!(
        "\nInterrupted; the game is saved. Continue with: grail play --resume {}\n",
        save.display()
    );
    if MESSAGE.set(message.into_bytes()).is_ok() {
        install();
    }
}

#[cfg(unix)]
fn install() {
    extern "C" fn on_interrupt(_: libc::c_int) {
        if let Some(message) = MESSAGE.get() {
            // SAFETY: write(2) and _exit(2) are async-signal-safe; the buffer is immutable
            // once set, before the handler is installed.
            unsafe {
                libc::write(2, message.as_ptr().cast(), message.len());
            }
        }
        unsafe { libc::_exit(130) }
    }
    let handler: extern "C" fn(libc::c_int) = on_interrupt;
    // SAFETY: installs a handler that only calls async-signal-safe functions.
    unsafe {
        libc::signal(libc::SIGINT, handler as libc::sighandler_t);
    }
}

/// Elsewhere Ctrl-C ends the process as before; the save is whole all the same.
#[cfg(not(unix))]
fn install() {}
