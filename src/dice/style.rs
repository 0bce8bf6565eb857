//! Dice of one's own: a member's or a character's body colour, numeral colour and material,
//! as a room logs the choice and every client draws it. A look changes how a die is drawn,
//! never how it moves: the physics knows no look. Numerals stay readable whatever is chosen:
//! [`DiceLook::drawn`] gives ink at [`MIN_CONTRAST`] or more against the body.

use serde::{Deserialize, Serialize};

use super::DieKind;
pub use super::glyphs::Typeface;
use super::marks::FaceMarks;

/// The least contrast a numeral has with its face, as drawn (WCAG 2's ratio for body text).
pub const MIN_CONTRAST: f64 = 4.5;

/// What a die is made of: how light plays on its surface.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Material {
    /// Opaque, glossy plastic (the dice dicetable has always drawn).
    #[default]
    Plastic,
    /// Glass-like resin: light passes through the die (a little, so its numerals still read).
    Translucent,
    /// Polished metal.
    Metal,
    /// Matte, speckled stone.
    Stone,
    /// Matte wood with its grain.
    Wood,
}

/// How a renderer draws a material: physically based parameters every client uses alike.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Surface {
    /// 0 (mirror) to 1 (chalk).
    pub roughness: f32,
    /// 0 (dielectric) to 1 (metal).
    pub metalness: f32,
    /// 1 opaque; less lets light through the body.
    pub opacity: f32,
    /// How strongly the atlas speckles or streaks the body (stone, wood): 0 for none.
    pub grain: f32,
}

impl Material {
    /// Every material, in the order pickers list them.
    pub const ALL: [Material; 5] = [
        Material::Plastic,
        Material::Translucent,
        Material::Metal,
        Material::Stone,
        Material::Wood,
    ];

    /// Its name on the wire and in files.
    pub fn name(self) -> &'static str {
        match self {
            Material::Plastic => "plastic",
            Material::Translucent => "translucent",
            Material::Metal => "metal",
            Material::Stone => "stone",
            Material::Wood => "wood",
        }
    }

    /// The material named `name`, if any.
    pub fn named(name: &str) -> Option<Material> {
        Material::ALL.into_iter().find(|m| m.name() == name)
    }

    /// How it is drawn.
    pub fn surface(self) -> Surface {
        let (roughness, metalness, opacity, grain) = match self {
            Material::Plastic => (0.18, 0.0, 1.0, 0.0),
            Material::Translucent => (0.05, 0.0, 0.78, 0.0),
            Material::Metal => (0.3, 1.0, 1.0, 0.0),
            Material::Stone => (0.8, 0.0, 1.0, 0.35),
            Material::Wood => (0.65, 0.0, 1.0, 0.25),
        };
        Surface {
            roughness,
            metalness,
            opacity,
            grain,
        }
    }
}

/// How a die looks: body and ink colours (sRGB) and what it is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DieStyle {
    /// The body.
    pub body: [u8; 3],
    /// The numbers.
    pub ink: [u8; 3],
    /// What it is made of (the atlas is the same for every material).
    pub material: Material,
    /// A d6 with pips instead of numerals.
    pub pips: bool,
    /// The numerals' typeface.
    pub typeface: Typeface,
}

impl DieStyle {
    /// The marks its dice of `kind` carry instead of numerals: pips on a d6 of a style with
    /// them, else none.
    pub fn marks_for(self, kind: DieKind) -> Option<FaceMarks> {
        (self.pips && kind == DieKind::D6).then(FaceMarks::pips)
    }

    /// A plastic die of these colours (the room's own dice).
    pub const fn plastic(body: [u8; 3], ink: [u8; 3]) -> DieStyle {
        DieStyle {
            body,
            ink,
            material: Material::Plastic,
            pips: false,
            typeface: Typeface::Sans,
        }
    }

    /// Ivory with dark numbers: the light (positive) die.
    pub const IVORY: DieStyle = DieStyle::plastic([236, 228, 210], [30, 28, 40]);
    /// Near-black with white numbers: the dark (negative) die.
    pub const ONYX: DieStyle = DieStyle::plastic([34, 32, 38], [240, 236, 226]);
    /// Deep red with white numbers.
    pub const RUBY: DieStyle = DieStyle::plastic([150, 24, 36], [250, 244, 236]);
    /// Blue with white numbers.
    pub const SAPPHIRE: DieStyle = DieStyle::plastic([30, 64, 150], [250, 244, 236]);
    /// Green with white numbers.
    pub const EMERALD: DieStyle = DieStyle::plastic([22, 110, 70], [250, 244, 236]);
    /// Warm yellow with dark numbers.
    pub const AMBER: DieStyle = DieStyle::plastic([226, 162, 40], [40, 26, 10]);
    /// Purple with white numbers.
    pub const VIOLET: DieStyle = DieStyle::plastic([96, 44, 140], [250, 244, 236]);
}

/// A colour as the log writes it: `#rrggbb`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb(pub [u8; 3]);

impl Rgb {
    /// `#rrggbb` (or `rrggbb`), any case.
    pub fn parse(text: &str) -> Option<Rgb> {
        let hex = text.strip_prefix('#').unwrap_or(text);
        if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        Some(Rgb([byte(0)?, byte(2)?, byte(4)?]))
    }

    /// `#rrggbb`, lower case.
    pub fn hex(self) -> String {
        let [r, g, b] = self.0;
        format!("#{r:02x}{g:02x}{b:02x}")
    }

    /// WCAG 2's relative luminance.
    pub fn luminance(self) -> f64 {
        let channel = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        let [r, g, b] = self.0;
        0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }

    /// WCAG 2's contrast ratio of two colours, 1 to 21.
    pub fn contrast(self, other: Rgb) -> f64 {
        let (a, b) = (self.luminance(), other.luminance());
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }

    /// This colour moved `t` (0 to 1) of the way toward `to`.
    pub(crate) fn toward(self, to: Rgb, t: f64) -> Rgb {
        let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as u8;
        Rgb([
            mix(self.0[0], to.0[0]),
            mix(self.0[1], to.0[1]),
            mix(self.0[2], to.0[2]),
        ])
    }
}

impl Serialize for Rgb {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.hex())
    }
}

impl schemars::JsonSchema for Rgb {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Rgb".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A colour, #rrggbb.",
            "type": "string",
            "pattern": "^#?[0-9A-Fa-f]{6}$"
        })
    }
}

impl<'de> Deserialize<'de> for Rgb {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Rgb, D::Error> {
        let text = String::deserialize(d)?;
        Rgb::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!("'{text}' is not a colour: write #rrggbb"))
        })
    }
}

/// A set of dice of one's own: as chosen, before the contrast rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DiceLook {
    /// The body's colour.
    pub body: Rgb,
    /// The numerals' (and pips') colour.
    pub ink: Rgb,
    /// What the dice are made of.
    #[serde(default)]
    pub material: Material,
    /// Pips on the d6 instead of numerals, as on a common die (absent: numerals).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub pips: bool,
    /// The numerals' typeface (absent: sans, the dice's first).
    #[serde(default, skip_serializing_if = "Typeface::is_sans")]
    pub typeface: Typeface,
}

impl DiceLook {
    /// Its colours in words, for a history line: "#1e40aa with #ffffff numerals", with the
    /// typeface where it is not the first ("#1e40aa with #ffffff serif numerals") and ", pips
    /// on the d6" where it has them.
    pub fn colours(self) -> String {
        let pips = if self.pips { ", pips on the d6" } else { "" };
        let face = match self.typeface {
            Typeface::Sans => String::new(),
            other => format!("{} ", other.name()),
        };
        format!(
            "{} with {} {face}numerals{pips}",
            self.body.hex(),
            self.ink.hex()
        )
    }

    /// The colours drawn: the body as chosen, the ink as chosen where it reads at
    /// [`MIN_CONTRAST`] or more against it, else moved toward black or white (whichever reads
    /// better on this body) just far enough, so a numeral keeps its hue where it can.
    pub fn drawn(self) -> DieStyle {
        DieStyle {
            body: self.body.0,
            ink: readable_ink(self.body, self.ink).0,
            material: self.material,
            pips: self.pips,
            typeface: self.typeface,
        }
    }
}

/// `ink`, or the nearest colour on its way to black or white that reads on `body` at
/// [`MIN_CONTRAST`]: black or white itself always does (one of them is at least 4.58:1 against
/// any colour).
pub fn readable_ink(body: Rgb, ink: Rgb) -> Rgb {
    if body.contrast(ink) >= MIN_CONTRAST {
        return ink;
    }
    let (black, white) = (Rgb([0, 0, 0]), Rgb([255, 255, 255]));
    let extreme = if body.contrast(black) >= body.contrast(white) {
        black
    } else {
        white
    };
    // The least step toward the extreme that reads: contrast grows along the way.
    let (mut low, mut high) = (0.0, 1.0);
    for _ in 0..20 {
        let mid = (low + high) / 2.0;
        if body.contrast(ink.toward(extreme, mid)) >= MIN_CONTRAST {
            high = mid;
        } else {
            low = mid;
        }
    }
    let moved = ink.toward(extreme, high);
    if body.contrast(moved) >= MIN_CONTRAST {
        moved
    } else {
        extreme
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rgb(text: &str) -> Rgb {
        Rgb::parse(text).expect("a colour")
    }

    #[test]
    fn contrast_is_wcags() {
        assert!((rgb("#000000").contrast(rgb("#ffffff")) - 21.0).abs() < 1e-9);
        assert!((rgb("#777777").contrast(rgb("#ffffff")) - 4.48).abs() < 0.01);
        assert_eq!(rgb("#123456").contrast(rgb("#123456")), 1.0);
    }

    /// The worst pairs a player may pick (yellow on white, dark grey on black, grey on grey,
    /// one colour for both) read at 4.5:1 or more as drawn; a pair that already reads is kept.
    #[test]
    fn every_numeral_reads_at_four_and_a_half_to_one_as_drawn() {
        for (body, ink) in [
            ("#ffffff", "#ffff00"),
            ("#000000", "#333333"),
            ("#777777", "#888888"),
            ("#ff0000", "#ff0000"),
            ("#ffff00", "#ffffff"),
            ("#1a1a1a", "#000000"),
            ("#7f7f7f", "#7f7f7f"),
            ("#0000ff", "#ff0000"),
        ] {
            let look = DiceLook {
                body: rgb(body),
                ink: rgb(ink),
                material: Material::Plastic,
                pips: false,
                typeface: Typeface::Sans,
            };
            let drawn = look.drawn();
            let ratio = Rgb(drawn.body).contrast(Rgb(drawn.ink));
            assert!(ratio >= MIN_CONTRAST, "{ink} on {body}: {ratio:.2}");
            assert_eq!(drawn.body, rgb(body).0, "the body stays as chosen");
        }
        // Yellow numerals on white become a dark yellow, not black: the hue is kept.
        let ink = readable_ink(rgb("#ffffff"), rgb("#ffff00")).0;
        assert!(ink[0] == ink[1] && ink[2] == 0 && ink[0] > 0, "{ink:?}");
        // Ink that reads is left alone.
        let kept = DiceLook {
            body: rgb("#96182a"),
            ink: rgb("#faf4ec"),
            material: Material::Metal,
            pips: true,
            typeface: Typeface::Sans,
        };
        assert_eq!(kept.drawn().ink, rgb("#faf4ec").0);
    }

    #[test]
    fn a_look_reads_and_writes_as_the_log_holds_it() {
        let short = serde_json::from_str::<DiceLook>(r##"{"body":"#1E40AA","ink":"#fff"}"##)
            .expect_err("a three-digit colour is refused");
        assert!(
            short.to_string().contains("'#fff' is not a colour"),
            "{short}"
        );
        let look: DiceLook =
            serde_json::from_str(r##"{"body":"#1E40AA","ink":"#ffffff","material":"stone"}"##)
                .expect("a look");
        assert_eq!(
            serde_json::to_string(&look).expect("json"),
            r##"{"body":"#1e40aa","ink":"#ffffff","material":"stone"}"##
        );
        let plain: DiceLook =
            serde_json::from_str(r##"{"body":"#000000","ink":"#ffffff"}"##).expect("a look");
        assert_eq!((plain.material, plain.pips), (Material::Plastic, false));
        let pips: DiceLook =
            serde_json::from_str(r##"{"body":"#000000","ink":"#ffffff","pips":true}"##)
                .expect("a look");
        assert_eq!(
            (serde_json::to_string(&pips).expect("json"), pips.colours()),
            (
                r##"{"body":"#000000","ink":"#ffffff","material":"plastic","pips":true}"##.into(),
                "#000000 with #ffffff numerals, pips on the d6".into()
            )
        );
        assert!(
            serde_json::from_str::<DiceLook>(
                r##"{"body":"#000000","ink":"#ffffff","material":"jelly"}"##
            )
            .is_err()
        );
        for m in Material::ALL {
            assert_eq!(Material::named(m.name()), Some(m));
        }
    }
}
