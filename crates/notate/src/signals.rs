//! What a signal does to a run: `SIGINT` (`Ctrl-C`), `SIGTERM` and `SIGHUP` end it as
//! they would any program, its temporary output files removed first, so that an
//! interrupted run leaves its outputs' earlier files as they were and nothing beside
//! them ([`collection::output::abandon`]), and a file written in place (`annotate -o`)
//! cut back to its last whole game, with a word on how to resume it
//! ([`collection::output::abandon_in_place`]); `SIGXFSZ` is ignored, so that a write past
//! the file size limit (`ulimit -f`) fails as an error naming the file, which the job
//! reports, instead of ending the process.

use std::io;
use std::sync::atomic::AtomicBool;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGXFSZ};
use signal_hook::iterator::Signals;

/// The signal thread's stack, in bytes (a thread's default is 2 MiB in Rust).
const SIGNAL_THREAD_STACK: usize = 128 << 10;

/// Set when `SIGXFSZ` arrives, and never read: having a handler is what matters.
static FILE_TOO_LARGE: AtomicBool = AtomicBool::new(false);

/// Installs the handlers: a thread waits for the ending signals, removes the temporary
/// files, then ends the process by the signal's default action (its exit status says
/// which signal ended it, as a shell expects).
///
/// # Errors
/// The handlers or the thread cannot be had.
pub fn install() -> io::Result<()> {
    signal_hook::flag::register(SIGXFSZ, &FILE_TOO_LARGE)?;
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("signals".to_owned())
        // A small stack: the thread only removes files, and its stack counts against an
        // address-space limit (`ulimit -v`) that a large game's reading must meet too.
        .stack_size(SIGNAL_THREAD_STACK)
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                // Held until the process ends: no output is made or put in place after.
                let _outputs = collection::output::abandon();
                let (_in_place, cut) = collection::output::abandon_in_place();
                for path in cut {
                    eprintln!(
                        "notate: interrupted: {} holds the games done so far; the same command with --resume goes on from there",
                        path.display()
                    );
                }
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                // The default action of these signals ends the process; should it not
                // have, the exit status is the one a shell gives a process they ended.
                std::process::exit(128 + signal);
            }
        })?;
    Ok(())
}
