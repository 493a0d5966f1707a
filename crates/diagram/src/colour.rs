//! Colours with an opacity, as SVG writes them.

use std::fmt;

/// A colour and its opacity: `#rrggbb`, opaque unless [`Colour::with_opacity`] says
/// otherwise.
///
/// ```
/// use diagram::Colour;
///
/// let green = Colour::rgb(0x15781b).with_opacity(80);
/// assert_eq!(green.to_string(), "#15781b");
/// assert_eq!(green.opacity(), 80);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Colour {
    rgb: u32,
    opacity: u8,
}

impl Colour {
    /// An opaque colour from its `0xRRGGBB` value (bits above the lower 24 are ignored).
    pub const fn rgb(rgb: u32) -> Colour {
        Colour {
            rgb: rgb & 0x00ff_ffff,
            opacity: 100,
        }
    }

    /// The same colour with an opacity in percent (100 and more: opaque).
    pub const fn with_opacity(self, percent: u8) -> Colour {
        Colour {
            rgb: self.rgb,
            opacity: if percent > 100 { 100 } else { percent },
        }
    }

    /// The opacity in percent, 0 to 100.
    pub const fn opacity(self) -> u8 {
        self.opacity
    }

    /// The `0xRRGGBB` value.
    pub const fn value(self) -> u32 {
        self.rgb
    }

    /// Whether the colour is not opaque.
    pub const fn is_translucent(self) -> bool {
        self.opacity < 100
    }

    /// The opacity as SVG writes it: `0.80`.
    pub(crate) fn opacity_text(self) -> Opacity {
        Opacity(self.opacity)
    }
}

impl fmt::Display for Colour {
    /// `#rrggbb`, without the opacity.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:06x}", self.rgb)
    }
}

/// An opacity in percent, written as a fraction: `0.80`, `1`.
pub(crate) struct Opacity(u8);

impl fmt::Display for Opacity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 >= 100 {
            f.write_str("1")
        } else {
            write!(f, "0.{:02}", self.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_written_as_hex_and_opacity_as_a_fraction() {
        assert_eq!(Colour::rgb(0xf0d9b5).to_string(), "#f0d9b5");
        assert_eq!(Colour::rgb(0x0000ff).to_string(), "#0000ff");
        assert_eq!(Colour::rgb(0x1_000_0ff).value(), 0x0000ff);
        let c = Colour::rgb(0).with_opacity(5);
        assert_eq!(c.opacity_text().to_string(), "0.05");
        assert_eq!(c.with_opacity(250).opacity(), 100);
        assert_eq!(Colour::rgb(0).opacity_text().to_string(), "1");
    }
}
