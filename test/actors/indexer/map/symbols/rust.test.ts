import test from 'ava';
import { definitionsOf } from './definitions-of.js';

test('a Rust file lists pub items as exported and top-level private items as private', (t) => {
  const source = `//! Token bucket rate limiting.
use std::time::{Duration, Instant};

pub use crate::clock::{Clock, SystemClock as Wall};
pub(crate) use self::internal::Refill;

pub const DEFAULT_RATE: u32 = 10;
static mut COUNTER: u64 = 0;

#[derive(Debug, Clone)]
pub struct Bucket {
    capacity: u32,
    tokens: f64,
}

pub enum Decision {
    Allow,
    Deny(Duration),
}

pub trait Limiter {
    fn check(&mut self) -> Decision;
}

pub type Result<T> = std::result::Result<T, Error>;

struct Error;

impl Bucket {
    pub fn new(capacity: u32) -> Self {
        Bucket { capacity, tokens: capacity as f64 }
    }

    pub(crate) fn refill(&mut self, now: Instant) {}

    fn take(&mut self) -> bool {
        true
    }
}

pub async fn wait_for(bucket: &mut Bucket) {}

pub const fn max_rate() -> u32 { 100 }

unsafe fn raw_reset() {}

pub mod metrics {
    pub fn count() -> u64 { 0 }
}

mod internal;

#[macro_export]
macro_rules! limit {
    ($b:expr) => { $b.check() };
}

macro_rules! local_helper {
    () => {};
}
`;
  t.deepEqual(definitionsOf('src/bucket.rs', source), [
    '+ Clock variable',
    '+ Wall variable',
    '- Refill variable',
    '+ DEFAULT_RATE constant',
    '- COUNTER variable',
    '+ Bucket struct',
    '+ Decision enum',
    '+ Limiter trait',
    '+ Result type',
    '- Error struct',
    '+ new function',
    '- refill function',
    '+ wait_for function',
    '+ max_rate function',
    '- raw_reset function',
    '+ metrics module',
    '+ count function',
    '- internal module',
    '+ limit macro',
    '- local_helper macro',
  ]);
});
