//! Ctrl-C during `grail play`. The save is whole after every move (`save.rs`), so an
//! interrupt needs no cleanup: the handler only says how to resume (or, when the save could
//! not be written, that the game is not saved) and exits (130, as a shell reports SIGINT).
//! It does only what a signal handler may: an atomic load, `write` and `_exit`.

use std::path::Path;
use std::sync::atomic::{AtomicPtr, Ordering};

/// What Ctrl-C prints: a leaked message, swapped whole when the save's state changes (a few
/// per game at most), so the handler never sees half of one.
static MESSAGE: AtomicPtr<&'static [u8]> = AtomicPtr::new(std::ptr::null_mut());

/// From now on, Ctrl-C prints where the game is saved and how to continue it, then exits.
pub fn announce_save_on_interrupt(save: &Path) {
    set(format!(
        "\nInterrupted; the game is saved. Continue with: grail play --resume {}\n",
        save.display()
    ));
}

/// From now on, Ctrl-C says the game is not saved (the save could not be written), then exits.
pub fn announce_not_saved(save: &Path, why: &str) {
    set(format!(
        "\nInterrupted; the game is NOT saved: cannot save to {} ({why})\n",
        save.display()
    ));
}

fn set(message: String) {
    let bytes: &'static [u8] = Box::leak(message.into_bytes().into_boxed_slice());
    let slot: *mut &'static [u8] = Box::into_raw(Box::new(bytes));
    if MESSAGE.swap(slot, Ordering::SeqCst).is_null() {
        install();
    }
}

#[cfg(unix)]
fn install() {
    extern "C" fn on_interrupt(_: libc::c_int) {
        let slot = MESSAGE.load(Ordering::SeqCst);
        if !slot.is_null() {
            // SAFETY: a slot, once stored, is leaked and never changed or freed; write(2)
            // and _exit(2) are async-signal-safe.
            unsafe {
                let message: &[u8] = *slot;
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
