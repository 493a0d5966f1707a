//! The module's exceptions: `NotationError`, the package's base error, and those derived
//! from it, raised with the messages `notate` prints.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(
    notate,
    NotationError,
    PyException,
    "A notation that cannot be read: a FEN, a variant or game type, a format. Its message \
     is the one the `notate` command prints. Games are never raised: a game that cannot be \
     read is still yielded, with its diagnostics."
);

create_exception!(
    notate,
    FenError,
    NotationError,
    "A FEN that does not describe a position of its game."
);

create_exception!(
    notate,
    EngineError,
    NotationError,
    "An analysis engine that cannot be started: a program that does not exist or cannot be \
     run, one that does not speak UCI, or one that refuses an option it is given."
);

/// Adds the exceptions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("NotationError", py.get_type::<NotationError>())?;
    m.add("FenError", py.get_type::<FenError>())?;
    m.add("EngineError", py.get_type::<EngineError>())?;
    Ok(())
}
