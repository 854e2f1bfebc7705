//! A clinical scientist's repeated measures kept wide, as R reshapes
//! them: a hypertension trial's spreadsheet (systolic pressure and heart
//! rate at weeks 0 to 12 in columns `sbp.0` ... `hr.12`) reshaped long by
//! R 4.2.2's stats::reshape (varying names split at `sep` as its guess()
//! splits them, varying as a list with v.names and times, varying by
//! column number, a vector with v.names matched to the sorted groups as
//! R matches them, the generated `id` column, `drop`, `sep = "_"` and
//! `sep = ""`), with R's row names ("P01.0", "1.4", "3.pre"); summarised
//! by aggregate and tapply, fitted by lm, reshaped back wide (by one id
//! and by two, a missed visit left NA, row names of each id's first
//! row), and stacked and unstacked. The workflow
//! tests/fixtures/workflows/library56.toml runs and every step must
//! agree with what R computed for the same expression
//! (tests/fixtures/r/library56.R wrote library56.json); what R refuses,
//! flowcast refuses with R's message (library56_errors.json).

use crate::common;
use common::r_json;

/// Every step's JSON against R's.
#[test]
fn library56_workflow_matches_r() {
    r_json::assert_matches_r("library56");
}

/// Each case of library56_errors.json fails with R's message and no panic.
#[test]
fn refusals_are_rs() {
    r_json::assert_refusals_are_rs("library56_errors");
}

/// R reads the way back from the attribute reshape() leaves on its result;
/// flowcast's data frames hold no such attribute, so the calls that lean
/// on it are refused saying so, as is a `split` other than sep's.
#[test]
fn flowcast_refusals_say_why() {
    let w = "w = 'data.frame(id = 1:3, x.1 = c(5, 6, 7), x.2 = c(4, 6, 8))'\n\
             l = 'reshape(w, direction = \"long\", varying = 2:3)'\n";
    common::assert_refused_saying(
        w,
        &[
            ("a = 'reshape(l)'", "flowcast's data frames carry no such attribute"),
            ("a = 'reshape(l)'", "reshape() without direction is not supported"),
            (
                "a = 'reshape(l, direction = \"wide\")'",
                "without idvar and timevar is not supported",
            ),
            (
                "a = 'reshape(w, direction = \"long\")'",
                "without varying is not supported",
            ),
            (
                "a = 'reshape(w, direction = \"long\", varying = 2:3, split = list(regexp = \"x\", include = TRUE))'",
                "reshape(split = ) is not supported",
            ),
        ],
    );
}

/// The plan knows a reshaped frame's columns and rows before the run
/// where the data frame and the layout's arguments are constants (wide:
/// its columns where varying is given; its rows are the distinct ids),
/// and a stack's.
#[test]
fn shape_is_known_before_the_run() {
    let all = common::checked(
        "w = 'data.frame(id = c(1, 2, 3), g = c(\"a\", \"b\", \"a\"), x.1 = c(5, 6, 7), x.2 = c(4, 6, 8), y.1 = c(1, 2, 3), y.2 = c(2, 2, 2))'\n\
         l = 'reshape(w, direction = \"long\", varying = c(\"x.1\", \"x.2\", \"y.1\", \"y.2\"))'\n\
         nl = 'ncol(l) * 1000 + nrow(l)'\n\
         v = 'data.frame(id = c(1, 2, 1, 2), t = c(1, 1, 2, 2), x = c(3, 4, 5, 6))'\n\
         b = 'reshape(v, direction = \"wide\", idvar = \"id\", timevar = \"t\", varying = c(\"x.a\", \"x.b\"))'\n\
         nb = 'ncol(b)'\n\
         s = 'stack(w[, c(\"x.1\", \"x.2\")])'\n\
         ns = 'nrow(s) * 1000 + ncol(s)'",
    );
    assert!(all.contains("num[1] = 5006"), "{all}");
    assert!(all.contains("num[1] = 3\n"), "{all}");
    assert!(all.contains("num[1] = 6002"), "{all}");
}

/// Odd values in reshape's arguments give a value or an error, never a
/// panic: every call with every odd value is a step of one workflow (a
/// failing step fails alone), so one run tries them all.
#[test]
fn odd_inputs_do_not_panic() {
    let odd = [common::ODD_VALUES, &["c(\"x.1\", \"x.2\")", "list(2:3)"]].concat();
    let calls = [
        "reshape(X, direction = \"long\", varying = 2:3)",
        "reshape(w, direction = X, varying = 2:3)",
        "reshape(w, direction = \"long\", varying = X)",
        "reshape(w, direction = \"long\", varying = 2:3, v.names = X)",
        "reshape(w, direction = \"long\", varying = 2:3, times = X)",
        "reshape(w, direction = \"long\", varying = 2:3, sep = X)",
        "reshape(w, direction = \"long\", varying = 2:3, idvar = X)",
        "reshape(w, direction = \"long\", varying = 2:3, drop = X)",
        "reshape(w, direction = \"long\", varying = 2:3, ids = X)",
        "reshape(w, direction = \"long\", varying = 2:3, new.row.names = X)",
        "reshape(l, direction = \"wide\", idvar = X, timevar = \"time\")",
        "reshape(l, direction = \"wide\", idvar = \"id\", timevar = X)",
        "reshape(l, direction = \"wide\", idvar = \"id\", timevar = \"time\", varying = X)",
        "reshape(l, direction = \"wide\", idvar = \"id\", timevar = \"time\", v.names = X)",
    ];
    let mut steps = String::from(
        "w = 'data.frame(id = c(1, 2, 3), x.1 = c(5, 6, 7), x.2 = c(4, 6, 8))'\n\
         l = 'reshape(w, direction = \"long\", varying = 2:3)'\n",
    );
    let mut k = 0;
    for call in calls {
        for x in &odd {
            k += 1;
            steps += &format!("a{k} = '{}'\n", call.replace('X', x));
        }
    }
    let (_dir, path) = common::steps_workflow(&steps);
    let out = common::flowcast(&["run", "--headless", "--no-cache", common::arg(&path)]);
    let all = common::text(&out.stderr) + &common::text(&out.stdout);
    assert!(!all.contains("panicked"), "{all}");
    assert!(!all.contains("internal error"), "{all}");
    assert!(all.contains(&format!("{} steps", k + 2)), "{all}");
}
