//! Functions given to functions, as R passes them: a parameter the body
//! calls or passes on, given a built-in function by name, a function
//! step, a local function or a `function(...)` written in the call, or
//! taking one as its default; with `...`, recursion, replicate and sapply
//! inside. The workflow tests/fixtures/workflows/higher_order.toml runs,
//! and every step must equal R's (tests/fixtures/r/higher_order.R wrote
//! higher_order.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn higher_order_workflow_matches_r() {
    r_json::assert_matches_r("higher_order");
}

/// A function given that reads a name the function it is given to binds
/// would read that function's variable once put in its body: refused,
/// naming both, where the call is.
#[test]
fn a_function_given_that_would_read_anothers_variable_is_refused() {
    common::assert_refused_saying(
        "",
        &[
            (
                "g = 'function(f, v) f(v)'\nv = '2'\na = 'g(function(u) u + v, 1)'",
                "the function given for `f` reads `v`, which is also a parameter or local of `g`",
            ),
            (
                "g = 'function(f, v) f(v)'\nv = '2'\na = 'g(function(u) u + v, 1)'",
                "w.toml:4:",
            ),
        ],
    );
}
