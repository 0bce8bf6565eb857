//! The bell that wakes the window from another thread (a room's client, the stream server):
//! the window draws no frames while its table is still (`pacing`), and work handed to it must
//! not wait for its next idle tick. Kept apart from `pacing`, which reads the table and the
//! overlays, so that those who ring it import nothing of theirs.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use bevy::prelude::*;
use bevy::winit::{EventLoopProxy, WinitUserEvent};

use crate::net::bell::Bell;

/// The bell that wakes this window, and whether it rang since the last frame.
#[derive(Resource, Clone, Debug, Default)]
pub struct WakeBell {
    /// Given to the threads that hand the window work.
    bell: Bell,
    rung: Arc<AtomicBool>,
}

impl WakeBell {
    /// A bell that marks itself rung and wakes the window's event loop through `proxy` (none,
    /// as in an app without winit: a bell that rings nobody).
    pub(super) fn through(proxy: Option<EventLoopProxy<WinitUserEvent>>) -> WakeBell {
        let rung = Arc::new(AtomicBool::new(false));
        let bell = match proxy {
            Some(proxy) => {
                let rung = rung.clone();
                Bell::new(move || {
                    rung.store(true, Ordering::Release);
                    let _ = proxy.send_event(WinitUserEvent::WakeUp);
                })
            }
            None => Bell::default(),
        };
        WakeBell { bell, rung }
    }

    /// Whether the bell rang since this was last asked.
    pub(super) fn take_rung(&self) -> bool {
        self.rung.swap(false, Ordering::AcqRel)
    }
}

/// The bell of this window, or one that rings nobody (an app without a window, a test).
pub fn bell(wake: Option<&WakeBell>) -> Bell {
    wake.map(|w| w.bell.clone()).unwrap_or_default()
}
