//! Helpers shared by the integration tests (each test file takes what it needs).
#![allow(dead_code)]

pub mod cli;
pub mod combat;
pub mod files;
pub mod nephilim;
pub mod others;
pub mod params;
pub mod runs;
pub mod trace;
