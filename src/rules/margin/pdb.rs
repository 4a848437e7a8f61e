//! Pattern tables: for a small group of pieces (one to three) and their targets, the exact number of
//! moves the group needs when it is alone on the board, for every placement of the group. Moves of
//! different pieces are separate turns, so the tables of disjoint groups add up to an admissible and
//! consistent heuristic. Tables depend only on the movement and the targets, so they are cached for
//! the whole process (bounded in size).

use super::model::{Mover, NONE, SQUARES};
use crate::board::Color;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Unreachable or impossible placements.
pub(crate) const UNREACHABLE: u8 = u8::MAX;

pub(crate) struct Table {
    values: Vec<u8>,
}

impl Table {
    /// The group's cost with its pieces on these padded squares, in group order.
    #[inline]
    pub fn get(&self, mover: &Mover, squares: impl Iterator<Item = u8>) -> u8 {
        self.values[index(mover, squares)]
    }
}

#[inline]
fn index(mover: &Mover, squares: impl Iterator<Item = u8>) -> usize {
    let mut idx = 0;
    let mut scale = 1;
    for sq in squares {
        idx += mover.dense[sq as usize] as usize * scale;
        scale *= SQUARES;
    }
    idx
}

/// Winther, colour and the targets (padded with [`NONE`]): a key that needs no allocation, as
/// tables are looked up for every group and zone searched.
type Key = (bool, Color, [u8; 3]);
/// The cache's size limit; past it the cache starts afresh.
const CACHE_BYTES: usize = 48 << 20;

struct Cache {
    tables: HashMap<Key, Arc<Table>>,
    bytes: usize,
}

/// The table of the group whose targets are `targets` (padded squares, one to three).
pub(crate) fn table(mover: &Mover, targets: &[u8]) -> Arc<Table> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| {
        Mutex::new(Cache {
            tables: HashMap::new(),
            bytes: 0,
        })
    });
    let mut padded = [NONE; 3];
    padded[..targets.len()].copy_from_slice(targets);
    let key = (mover.winther, mover.color, padded);
    if let Some(t) = cache.lock().ok().and_then(|c| c.tables.get(&key).cloned()) {
        return t;
    }
    let built = Arc::new(build(mover, targets));
    if let Ok(mut c) = cache.lock() {
        if c.bytes + built.values.len() > CACHE_BYTES {
            c.tables.clear();
            c.bytes = 0;
        }
        c.bytes += built.values.len();
        c.tables.insert(key, built.clone());
    }
    built
}

/// Breadth-first search backward from the goal placement over every placement of the group.
fn build(mover: &Mover, targets: &[u8]) -> Table {
    let k = targets.len();
    let size = SQUARES.pow(k as u32);
    let mut values = vec![UNREACHABLE; size];
    let goal = index(mover, targets.iter().copied());
    values[goal] = 0;
    let mut frontier = vec![goal as u32];
    let mut next = Vec::new();
    let mut squares = [0u8; 3];
    let mut depth = 0u8;
    while !frontier.is_empty() && depth < UNREACHABLE - 1 {
        depth += 1;
        for &idx in &frontier {
            let mut rest = idx as usize;
            let mut occupied = 0u64;
            for sq in squares.iter_mut().take(k) {
                *sq = mover.padded[rest % SQUARES];
                rest /= SQUARES;
                occupied |= 1 << *sq;
            }
            for (j, &here) in squares.iter().enumerate().take(k) {
                let scale = SQUARES.pow(j as u32);
                let base = idx as usize - mover.dense[here as usize] as usize * scale;
                mover.for_each_relaxed_origin(here, occupied, |from| {
                    let prev = base + mover.dense[from as usize] as usize * scale;
                    if values[prev] == UNREACHABLE {
                        values[prev] = depth;
                        next.push(prev as u32);
                    }
                });
            }
        }
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
    }
    Table { values }
}
