//! R's `qnorm` (Wichura's AS 241), which `rnorm` uses by inversion.
