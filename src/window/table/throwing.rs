//! Throwing on the table: a throw the roll path asks for becomes a physical throw in a simulator
//! of its own (the same headless physics as `roll`, stepped at 120 Hz from the window's fixed
//! schedule). When its dice settle, a [`ThrowSettled`] message hands the throw's record to
//! whoever asked for it (the free-roll box, a move of the scene, a stored replay), which feeds it
//! to its roll. Nothing here draws: `dice_view` shows the dice where the simulator says.

use bevy::prelude::*;

use crate::dice::DieKind;
use crate::dice::looks::DicePainter;
use crate::dice::marks::FaceMarks;
use crate::dice::style::DieStyle;
use crate::physics::headless::{DiePose, Simulator};
use crate::physics::throw::Swing;
use crate::physics::{RollResult, STEP_HZ, ThrowRequest, tray};
use crate::record::{Cocked, Pose, ThrowRecord};
use crate::roll::{ThrowOrder, throw_record};
use crate::window::AppSystems;

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(Time::<Fixed>::from_hz(STEP_HZ));
    app.insert_non_send(TableSimulator::default());
    app.add_message::<ThrowSettled>();
    app.add_systems(FixedUpdate, step_throw);
    app.add_systems(Update, announce_settled.in_set(AppSystems::Settle));
}

/// A throw's dice have all settled: its record, for the thrower that asked for it.
#[derive(Message, Clone, Debug, PartialEq)]
pub struct ThrowSettled {
    /// Who asked for the throw.
    pub thrower: Thrower,
    /// The throw as it came to rest (dice, seed, faces, final poses).
    pub record: ThrowRecord,
}

/// Who a throw is for: each reads only its own results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Thrower {
    /// The free-roll box (dice notation).
    FreeRoll,
    /// A move of the scene at the table.
    Scene,
    /// A stored roll of an earlier session, thrown again.
    Stored,
}

/// One physical throw: the dice with their looks, what the physics is asked (built by the roll
/// path, as the headless simulator is asked it), and the cocked-dice policy it settles by.
#[derive(Clone, Debug, PartialEq)]
pub struct DiceThrow {
    /// Each physical die and how it looks, in throw order.
    pub dice: Vec<(DieKind, DieStyle)>,
    /// What each die's faces show, for a game's own die (none, or a shorter list: numbers).
    pub marks: Vec<Option<FaceMarks>>,
    /// Its seed, its tag (the number of the throw within its roll), its dice and swing.
    pub request: ThrowRequest,
    /// What a die that lands cocked gets.
    pub cocked: Cocked,
    /// Who reads the faces.
    pub thrower: Thrower,
}

impl DiceThrow {
    /// The throw a roll asks for, by `thrower`, with the roll's swing (the first throw only).
    pub fn of(
        order: &ThrowOrder,
        swing: Option<Swing>,
        cocked: Cocked,
        thrower: Thrower,
    ) -> DiceThrow {
        DiceThrow {
            dice: order.styled(),
            marks: order.marks(),
            request: order.request(swing.map(Into::into)),
            cocked,
            thrower,
        }
    }

    /// Its dice painted as a room's members chose them (`free`: a free roll's), where a room
    /// drives the table.
    pub fn painted(
        mut self,
        order: &ThrowOrder,
        painter: Option<&DicePainter>,
        free: bool,
    ) -> Self {
        if let Some(painter) = painter {
            self.dice = order
                .dice
                .iter()
                .zip(&order.tints)
                .map(|(kind, tint)| (*kind, painter.paint(*tint, free)))
                .collect();
        }
        self
    }
}

/// The physics of the throw in the air: its own simulator (a world holding nothing else).
#[derive(Default)]
pub struct TableSimulator {
    sim: Option<Simulator>,
    roll: Option<crate::physics::RollId>,
    finished: Option<RollResult>,
    announced: bool,
    thrower: Option<Thrower>,
    /// The throw being shown (its dice and looks).
    shown: Option<DiceThrow>,
    /// The speed of each die at the last step (cm/s).
    speeds: Vec<f32>,
    /// Impacts heard since the sounds last took them.
    impacts: Vec<Impact>,
    /// Throws started since the table opened (the number of the current one).
    throws: u64,
    /// What the physics was asked to throw.
    request: Option<ThrowRequest>,
    /// Physics steps of the current throw so far.
    steps: u32,
    /// What happened to the throws since the log was last taken, when someone reads it.
    log: Option<Vec<ThrowEvent>>,
}

/// What happens to a throw, in order: for the stream feed.
#[derive(Clone, Debug, PartialEq)]
pub enum ThrowEvent {
    /// Dice left the hand.
    Started {
        /// The number of the throw since the table opened.
        number: u64,
        /// The dice and their looks.
        throw: DiceThrow,
        /// Where they start.
        poses: Vec<Pose>,
    },
    /// Where they are, every [`TRAIL_STEPS`] steps.
    Frame(PoseFrame),
    /// Every die is at rest.
    Settled {
        /// The number of the throw.
        number: u64,
        /// Its record.
        record: ThrowRecord,
    },
}

/// The dice's poses at one step of a throw.
#[derive(Clone, Debug, PartialEq)]
pub struct PoseFrame {
    /// Physics steps since the throw started (120 a second).
    pub step: u32,
    /// Each die's pose, in throw order.
    pub poses: Vec<Pose>,
}

/// Steps between two frames of a throw's trail: 30 frames a second of simulated time, however
/// fast the window draws.
pub const TRAIL_STEPS: u32 = 4;

/// A die hitting the felt or a wall: how much speed it lost in one step, and where.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// Speed lost in one step, cm/s.
    pub strength: f32,
    /// Against the wooden walls (else the felt).
    pub on_wood: bool,
}

/// Speed a die must lose in one 120 Hz step to be heard (cm/s): rolling on felt is silent.
const HEARD_IMPACT: f32 = 25.0;

impl TableSimulator {
    /// True while dice are in the air (a new throw waits until they settle).
    pub fn busy(&self) -> bool {
        self.sim.is_some() && self.finished.is_none()
    }

    /// How many dice lie on the table (or fly over it).
    pub fn dice_shown(&self) -> usize {
        self.shown.as_ref().map_or(0, |t| t.dice.len())
    }

    /// The throw being shown: its dice and their looks.
    pub fn shown(&self) -> Option<&DiceThrow> {
        self.shown.as_ref()
    }

    /// Where each die of the throw shown is: at rest where it settled, else where it flies.
    pub fn poses(&mut self) -> Vec<(Vec3, Quat)> {
        if let Some(result) = &self.finished {
            return result
                .dice
                .iter()
                .map(|d| {
                    (
                        Vec3::from_array(d.translation),
                        Quat::from_array(d.rotation),
                    )
                })
                .collect();
        }
        let (Some(sim), Some(roll)) = (self.sim.as_mut(), self.roll) else {
            return Vec::new();
        };
        sim.poses(roll)
            .iter()
            .map(|p| (p.translation, p.rotation))
            .collect()
    }

    /// The number of the latest throw (counts from 1; 0 before any).
    pub fn throws_started(&self) -> u64 {
        self.throws
    }

    /// The number of the latest throw once its dice have settled.
    pub fn settled_throw(&self) -> Option<u64> {
        self.finished.as_ref().map(|_| self.throws)
    }

    /// The settled dice of the latest throw, in throw order.
    pub fn settled(&self) -> Option<&RollResult> {
        self.finished.as_ref()
    }

    /// The record of the settled throw (what was asked, the faces and final poses).
    pub fn settled_record(&self) -> Option<ThrowRecord> {
        Some(throw_record(
            self.request.as_ref()?,
            self.finished.as_ref()?,
        ))
    }

    /// Starts keeping a log of what happens to the throws, for [`TableSimulator::take_log`].
    pub fn keep_log(&mut self) {
        self.log.get_or_insert_with(Vec::new);
    }

    /// What happened since the last call (nothing unless [`TableSimulator::keep_log`]).
    pub fn take_log(&mut self) -> Vec<ThrowEvent> {
        self.log.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// The impacts since the last call, for the sounds.
    pub fn take_impacts(&mut self) -> Vec<Impact> {
        std::mem::take(&mut self.impacts)
    }
}

/// Starts a throw in a fresh simulator (the dice of the last throw go; `dice_view` shows the
/// new ones).
pub fn start_throw(physics: &mut TableSimulator, throw: &DiceThrow) {
    let request = throw.request.clone();
    let mut sim = Simulator::with_steps(crate::roll::headless::settle_rules(throw.cocked), 1);
    let roll = sim.start(&request);
    let mut log = physics.log.take();
    if let Some(log) = log.as_mut() {
        log.push(ThrowEvent::Started {
            number: physics.throws + 1,
            throw: throw.clone(),
            poses: sim.poses(roll).iter().map(pose_of).collect(),
        });
    }
    *physics = TableSimulator {
        sim: Some(sim),
        roll: Some(roll),
        finished: None,
        announced: false,
        thrower: Some(throw.thrower),
        shown: Some(throw.clone()),
        speeds: Vec::new(),
        impacts: Vec::new(),
        throws: physics.throws + 1,
        request: Some(request),
        steps: 0,
        log,
    };
}

fn pose_of(pose: &DiePose) -> Pose {
    Pose {
        t: pose.translation.to_array(),
        r: pose.rotation.to_array(),
    }
}

/// Hands a settled throw, once, to the thrower that asked for it.
fn announce_settled(
    mut physics: NonSendMut<TableSimulator>,
    mut settled: MessageWriter<ThrowSettled>,
) {
    if physics.announced {
        return;
    }
    let (Some(thrower), Some(record)) = (physics.thrower, physics.settled_record()) else {
        return;
    };
    physics.announced = true;
    settled.write(ThrowSettled { thrower, record });
}

/// One physics step of the throw in the air, at the window's fixed rate.
fn step_throw(mut physics: NonSendMut<TableSimulator>) {
    let physics = &mut *physics;
    if physics.finished.is_some() {
        return;
    }
    if let Some(sim) = physics.sim.as_mut() {
        sim.update();
        physics.steps += 1;
        physics.finished = sim.take_finished().pop();
        if let Some(roll) = physics.roll {
            let poses = sim.poses(roll);
            let (number, record) = (physics.throws, physics.settled_record());
            if let Some(log) = physics.log.as_mut() {
                match record {
                    Some(record) => log.push(ThrowEvent::Settled { number, record }),
                    None if physics.steps.is_multiple_of(TRAIL_STEPS) => {
                        log.push(ThrowEvent::Frame(PoseFrame {
                            step: physics.steps,
                            poses: poses.iter().map(pose_of).collect(),
                        }))
                    }
                    None => {}
                }
            }
            for (pose, before) in poses.iter().zip(&physics.speeds) {
                let lost = before - pose.speed;
                if lost > HEARD_IMPACT {
                    let (x, z) = (pose.translation.x.abs(), pose.translation.z.abs());
                    physics.impacts.push(Impact {
                        strength: lost,
                        on_wood: x > tray::INNER_WIDTH / 2.0 - 2.5
                            || z > tray::INNER_DEPTH / 2.0 - 2.5,
                    });
                }
            }
            physics.speeds = poses.iter().map(|p| p.speed).collect();
        }
    }
}
