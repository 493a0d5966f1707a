//! Text made safe for where it goes: JSON strings (for `json`, and inside an HTML
//! `<script>` element for `html`), and HTML text.
//!
//! Both the JSON and the HTML writers are written by hand rather than through a
//! serialisation library (see [`crate::json`]), so strings are the one thing that needs
//! care, and it is done once, here.

use std::fmt;

/// What text is written to: a `String`, or an output through
/// [`IoText`](crate::large::IoText), which keeps the error that ends the writing (so the
/// writing functions go on regardless, and the caller asks `IoText` at the end).
pub trait Out: fmt::Write {
    /// Writes text.
    fn put(&mut self, s: &str) {
        let _ = self.write_str(s);
    }

    /// Writes a character.
    fn put_char(&mut self, c: char) {
        let _ = self.write_char(c);
    }
}

impl<W: fmt::Write> Out for W {}

/// Writes `s` as a JSON string.
///
/// ```
/// let mut out = String::new();
/// collection::escape::string("a \"quoted\"\tword", &mut out);
/// assert_eq!(out, r#""a \"quoted\"\tword""#);
/// ```
pub fn string<W: Out>(s: &str, out: &mut W) {
    escaped(s, false, out);
}

/// Writes `s` as a JSON string that can stand inside an HTML `<script>` element: `<`, `>`
/// and `&` escaped too, so that no text of a game ends the element.
///
/// ```
/// let mut out = String::new();
/// collection::escape::script_string("</script>", &mut out);
/// assert_eq!(out, r#""\u003c/script\u003e""#);
/// ```
pub fn script_string<W: Out>(s: &str, out: &mut W) {
    escaped(s, true, out);
}

/// Writes a list of strings as a JSON array.
pub fn strings<W: Out>(list: &[String], out: &mut W) {
    escaped_list(list, false, out);
}

/// Writes a list of strings as a JSON array that can stand inside an HTML `<script>`
/// element ([`script_string`]).
pub fn script_strings<W: Out>(list: &[String], out: &mut W) {
    escaped_list(list, true, out);
}

/// Writes text for HTML: `&`, `<`, `>` and `"` escaped.
///
/// ```
/// let mut out = String::new();
/// collection::escape::html_text("Tal & \"Petrosian\" <1959>", &mut out);
/// assert_eq!(out, "Tal &amp; &quot;Petrosian&quot; &lt;1959&gt;");
/// ```
pub fn html_text(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

fn escaped<W: Out>(s: &str, script: bool, out: &mut W) {
    out.put_char('"');
    // Runs of plain characters go out whole; what needs escaping is ASCII, which is
    // never part of another character's bytes.
    let mut from = 0;
    for (i, b) in s.bytes().enumerate() {
        let escaped = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            b'<' if script => "\\u003c",
            b'>' if script => "\\u003e",
            b'&' if script => "\\u0026",
            b if b < 0x20 => "",
            _ => continue,
        };
        out.put(&s[from..i]);
        if escaped.is_empty() {
            let _ = write!(out, "\\u{:04x}", b);
        } else {
            out.put(escaped);
        }
        from = i + 1;
    }
    out.put(&s[from..]);
    out.put_char('"');
}

fn escaped_list<W: Out>(list: &[String], script: bool, out: &mut W) {
    out.put_char('[');
    for (i, s) in list.iter().enumerate() {
        if i > 0 {
            out.put_char(',');
        }
        escaped(s, script, out);
    }
    out.put_char(']');
}
