//! A bell a server thread rings when it hands something to an app that may be asleep: the
//! window draws no frames while its table is still, and a room's news or an API job wakes it
//! at once rather than at its next idle tick.

use std::sync::Arc;

/// Rings whoever takes a server's news or jobs off its thread. The default rings nobody (a
/// test, the headless commands).
#[derive(Clone, Default)]
pub struct Bell(Option<Arc<dyn Fn() + Send + Sync>>);

impl Bell {
    /// A bell that calls `ring` each time it is rung.
    pub fn new(ring: impl Fn() + Send + Sync + 'static) -> Bell {
        Bell(Some(Arc::new(ring)))
    }

    /// Rings it (nothing happens for a bell that rings nobody).
    pub fn ring(&self) {
        if let Some(ring) = &self.0 {
            ring();
        }
    }
}

impl std::fmt::Debug for Bell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Bell(rings)"
        } else {
            "Bell(silent)"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn a_bell_rings_its_caller_and_a_silent_one_nobody() {
        let rung = Arc::new(AtomicUsize::new(0));
        let counter = rung.clone();
        let bell = Bell::new(move || {
            counter.fetch_add(1, Ordering::SeqCst);
        });
        bell.clone().ring();
        bell.ring();
        Bell::default().ring();
        assert_eq!(rung.load(Ordering::SeqCst), 2);
        assert_eq!(format!("{bell:?}"), "Bell(rings)");
    }
}
