//! The dice's clatter: a die that loses speed suddenly has hit the felt or a wall, and a short
//! sound plays, louder for a harder impact: a soft thud on felt, a click on wood. The sounds are
//! made here (filtered noise and a decaying tone, written as WAV in memory), so no sound file
//! and no licence comes with them.

use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings, Volume};
use bevy::prelude::*;

use super::throwing::{Impact, TableSimulator};
use crate::window::{AppSystems, PlayOptions};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, make_the_sounds);
    app.add_systems(Update, clatter.in_set(AppSystems::Present));
}

/// Sample rate of the made sounds.
const RATE: u32 = 44_100;
/// Variants of each sound, so a handful of dice do not sound like one.
const VARIANTS: u64 = 4;
/// At most this many impacts are heard per frame (the loudest): a hundred dice stay a clatter.
const VOICES_PER_FRAME: usize = 4;

/// What a die hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    /// The felt floor: a soft, low thud.
    Felt,
    /// The wooden walls: a bright click.
    Wood,
}

/// The made sounds.
#[derive(Resource)]
struct Clatter {
    felt: Vec<Handle<AudioSource>>,
    wood: Vec<Handle<AudioSource>>,
}

/// A small deterministic noise source (xorshift), so every build makes the same sounds.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

/// The samples of one impact sound, in −1..1.
pub fn impact_samples(surface: Surface, variant: u64) -> Vec<f32> {
    let mut noise =
        Noise(0x9E37_79B9_7F4A_7C15 ^ (variant + 1).wrapping_mul(0xD1B5_4A32_D192_ED03));
    let (millis, tone, decay, brightness) = match surface {
        Surface::Felt => (60.0, 120.0 + 25.0 * variant as f32, 70.0, 0.08),
        Surface::Wood => (90.0, 900.0 + 170.0 * variant as f32, 45.0, 0.55),
    };
    let n = (RATE as f32 * millis / 1000.0) as usize;
    let mut low = 0.0f32;
    (0..n)
        .map(|i| {
            let t = i as f32 / RATE as f32;
            let envelope = (-t * decay).exp() * (1.0 - (-t * 4000.0).exp());
            // One-pole low-pass: `brightness` near 0 keeps only the low rumble of the noise.
            low += brightness * (noise.next() - low);
            let body = (std::f32::consts::TAU * tone * t).sin();
            (0.7 * low / brightness.sqrt() + 0.5 * body) * envelope * 0.8
        })
        .map(|s| s.clamp(-1.0, 1.0))
        .collect()
}

/// Samples as a mono 16-bit WAV file.
pub fn wav(samples: &[f32]) -> Vec<u8> {
    let data_len = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&RATE.to_le_bytes());
    out.extend_from_slice(&(RATE * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        out.extend_from_slice(&((s * i16::MAX as f32) as i16).to_le_bytes());
    }
    out
}

/// How loud an impact sounds: from a whisper at the threshold to full at 3 m/s.
pub fn loudness(impact: &Impact) -> f32 {
    ((impact.strength - 20.0) / 280.0).clamp(0.04, 1.0)
}

fn make_the_sounds(mut commands: Commands, mut sources: ResMut<Assets<AudioSource>>) {
    let mut make = |surface| {
        (0..VARIANTS)
            .map(|v| {
                sources.add(AudioSource {
                    bytes: wav(&impact_samples(surface, v)).into(),
                })
            })
            .collect()
    };
    commands.insert_resource(Clatter {
        felt: make(Surface::Felt),
        wood: make(Surface::Wood),
    });
}

fn clatter(
    mut commands: Commands,
    mut physics: NonSendMut<TableSimulator>,
    clatter: Option<Res<Clatter>>,
    options: Res<PlayOptions>,
    mut played: Local<u64>,
) {
    let mut impacts = physics.take_impacts();
    let Some(clatter) = clatter else { return };
    if options.mute {
        return;
    }
    impacts.sort_by(|a, b| b.strength.total_cmp(&a.strength));
    for impact in impacts.iter().take(VOICES_PER_FRAME) {
        *played += 1;
        let set = if impact.on_wood {
            &clatter.wood
        } else {
            &clatter.felt
        };
        let source = set[(*played % set.len() as u64) as usize].clone();
        commands.spawn((
            AudioPlayer(source),
            PlaybackSettings {
                volume: Volume::Linear(loudness(impact)),
                speed: 0.92 + 0.04 * (*played % 5) as f32,
                ..PlaybackSettings::DESPAWN
            },
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_made_sounds_are_short_audible_wavs() {
        for surface in [Surface::Felt, Surface::Wood] {
            let s = impact_samples(surface, 1);
            let peak = s.iter().fold(0.0f32, |m, x| m.max(x.abs()));
            assert!(peak > 0.2 && peak <= 1.0, "{surface:?} peak {peak}");
            assert!(s.len() < RATE as usize / 5, "under 0.2 s");
            let tail = s[s.len() - 50..].iter().fold(0.0f32, |m, x| m.max(x.abs()));
            assert!(tail < peak * 0.1, "{surface:?} dies away");
            let bytes = wav(&s);
            assert_eq!(&bytes[..4], b"RIFF");
            assert_eq!(bytes.len(), 44 + s.len() * 2);
        }
        assert_ne!(
            impact_samples(Surface::Felt, 0),
            impact_samples(Surface::Felt, 1)
        );
    }

    #[test]
    fn harder_impacts_are_louder() {
        let soft = Impact {
            strength: 30.0,
            on_wood: false,
        };
        let hard = Impact {
            strength: 250.0,
            on_wood: false,
        };
        assert!(loudness(&hard) > loudness(&soft) * 5.0);
        assert_eq!(
            loudness(&Impact {
                strength: 900.0,
                on_wood: true
            }),
            1.0
        );
    }
}
