//! flowcast against R: each module runs workflows or calls kernels and
//! compares every value with what R 4.2 computed for the same expression
//! (tests/fixtures/r/*.R wrote the JSON fixtures beside them), and checks
//! that what R refuses flowcast refuses in R's words.
//!
//! One test binary for them all: each binary links the whole library,
//! and linking dozens of them was minutes of CI.

#[path = "../common/mod.rs"]
mod common;

mod anova_glm;
mod campaign;
mod collation;
mod conditions;
mod diagnostics;
mod e2e;
mod eigen_dc;
mod frames;
mod frames2;
mod gaps;
mod holdout;
mod htest_names;
mod ks_ties;
mod library10;
mod library11;
mod library12;
mod library13;
mod library14;
mod library15;
mod library16;
mod library17;
mod library18;
mod library19;
mod library20;
mod library21;
mod library22;
mod library23;
mod library24;
mod library25;
mod library26;
mod library27;
mod library28;
mod library29;
mod library30;
mod library31;
mod library32;
mod library33;
mod library34;
mod library35;
mod library36;
mod library37;
mod library38;
mod library39;
mod library4;
mod library40;
mod library41;
mod library42;
mod library43;
mod library44;
mod library45;
mod library46;
mod library48;
mod library49;
mod library5;
mod library50;
mod library52;
mod library53;
mod library54;
mod library55;
mod library56;
mod library57;
mod library58;
mod library59;
mod library6;
mod library60;
mod library61;
mod library62;
mod library63;
mod library64;
mod library66;
mod library67;
mod library68;
mod library69;
mod library7;
mod library70;
mod library71;
mod library72;
mod library8;
mod library9;
mod maths;
mod models;
mod nls;
mod noncentral;
mod ops;
mod recursion;
mod returns;
mod rownames;
mod sequential;
mod signal;
mod stats;
mod svd_signs;
mod sweep_a;
mod sweep_b;
mod switch;
mod tests2;
mod text_summary;
mod timeseries;
