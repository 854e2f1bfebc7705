//! `[workflow]` settings, `[steps]`, keys and value types, file loading.

use super::*;

#[test]
fn a_full_workflow() {
    let w = wf(r#"
[workflow]
name = "fig1"        # a comment
seed = 42
processors = 8
scheduler = "emcp"
out = "results"

[steps]
a = "matrix(rnorm(1200 * 1200), 1200, 1200)"
c = "matrix(rnorm(1200 * 1200), 1200, 1200)"
f = "friedman.test(a)"
w = "wilcox.test(c)"
b = { for = "i in 1:1200", do = "mean(c %*% a[i, ])" }
"#)
    .unwrap();
    assert_eq!(w.name, "fig1");
    assert_eq!(w.seed, Some(42));
    assert_eq!(w.processors, Some(8));
    assert_eq!(w.scheduler.as_deref(), Some("emcp"));
    assert_eq!(w.out.as_deref(), Some(Path::new("results")));
    let names: Vec<&str> = w.steps.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["a", "c", "f", "w", "b"]);
    let StepBody::Loop(l) = &w.step("b").unwrap().body else {
        panic!("b is a loop")
    };
    assert_eq!(l.var, "i");
    assert_eq!(text_at(&w, l.var_span), "i");
    assert_eq!(sexpr(&l.range), "(1:1200)");
    assert_eq!(sexpr(&l.body), "mean((c %*% a[i, ]))");
    assert_eq!(text_at(&w, l.body.span), "mean(c %*% a[i, ])");
    assert_eq!(text_at(&w, w.step("f").unwrap().name_span), "f");
}

/// Issue 13: a workflow file's `out` may not write outside its directory
/// (a path on the command line may go anywhere).
#[test]
fn out_stays_inside_the_workflow_directory() {
    let with = |out: &str| format!("[workflow]\nout = \"{out}\"\n[steps]\na = \"1\"\n");
    for outside in ["../x/deep", "a/../../x", "/tmp/x", ".."] {
        assert_eq!(
            error(&with(outside)),
            format!(
                "w.toml:2:7: `out` must be a directory inside the workflow's own \
                 (`{outside}` leaves it); to write elsewhere, pass --out DIR"
            )
        );
    }
    for inside in ["values", "./a/b", "a/../b", "."] {
        let w = wf(&with(inside)).unwrap();
        assert_eq!(w.out.as_deref(), Some(Path::new(inside)));
    }
}

#[test]
fn steps_keep_file_order() {
    let w = wf("[steps]\nz = \"1\"\na = \"z\"\nm = \"a\"\nb = \"m\"\n").unwrap();
    let names: Vec<&str> = w.steps.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["z", "a", "m", "b"]);
}

#[test]
fn defaults_and_sub_table_loops() {
    let w = wf(r#"
[steps]
"p.value" = "1"
[steps.b]
for = "(k in seq(1, 100))"
do = 'p.value * k'
"#)
    .unwrap();
    assert_eq!(w.name, "w");
    assert_eq!((w.seed, w.processors, &w.scheduler), (None, None, &None));
    let StepBody::Loop(l) = &w.step("b").unwrap().body else {
        panic!("b is a loop")
    };
    assert_eq!(
        (l.var.as_str(), sexpr(&l.range)),
        ("k", "seq(1, 100)".into())
    );
    assert_eq!(text_at(&w, l.body.span), "p.value * k");
}

#[test]
fn unknown_keys_in_every_table() {
    assert_eq!(
        error("[workflow]\nsceduler = \"mcp\"\n[steps]\na = \"1\"\n"),
        "w.toml:2:1: unknown key `sceduler`; did you mean `scheduler`?"
    );
    assert_eq!(
        error("[workflow]\ncolour = 1\n[steps]\na = \"1\"\n"),
        "w.toml:2:1: unknown key `colour` (expected `name`, `seed`, `processors`, \
         `scheduler`, `out`, `m`)"
    );
    assert_eq!(
        error("step = 1\n[steps]\na = \"1\"\n"),
        "w.toml:1:1: unknown key `step`; did you mean `steps`?"
    );
    let d = errors("[stpes]\na = \"1\"\n");
    assert_eq!(d.len(), 2);
    assert_eq!(d[0].location(), "w.toml");
    assert!(
        d[0].message.starts_with("missing `[steps]`"),
        "{}",
        d[0].message
    );
    assert_eq!(
        format!("{}: {}", d[1].location(), d[1].message),
        "w.toml:1:2: unknown key `stpes`; did you mean `steps`?"
    );
    assert_eq!(
        step_error("{ for = \"i in 1:3\", do = \"i\", by = 2 }"),
        "w.toml:2:35: unknown key `by` (expected `for`, `do`)"
    );
    let d = errors("[steps.b]\nfo = \"i in 1:3\"\ndo = \"i\"\n");
    let msgs: Vec<_> = d
        .iter()
        .map(|d| format!("{}: {}", d.location(), d.message))
        .collect();
    assert_eq!(
        msgs,
        [
            "w.toml:1:1: loop step `b` is missing `for` (as in `for = \"i in 1:N\"`)",
            "w.toml:2:1: unknown key `fo`; did you mean `for`?",
        ]
    );
}

#[test]
fn wrong_value_types_point_at_the_value() {
    let with = |setting: &str| error(&format!("[workflow]\n{setting}\n[steps]\na = \"1\"\n"));
    assert_eq!(
        with("seed = \"42\""),
        "w.toml:2:8: `seed` must be an integer, not a string"
    );
    assert_eq!(
        with("seed = 1.5"),
        "w.toml:2:8: `seed` must be an integer, not a float"
    );
    assert_eq!(
        with("seed = 3000000000"),
        "w.toml:2:8: `seed` must fit in R's 32-bit integers (-2147483648 to 2147483647)"
    );
    assert_eq!(
        with("processors = 0"),
        "w.toml:2:14: `processors` must be a positive integer"
    );
    assert_eq!(
        with("name = 3"),
        "w.toml:2:8: `name` must be a string, not an integer"
    );
    assert_eq!(with("out = ''"), "w.toml:2:7: `out` must not be empty");
    // TOML's other integer spellings are integers too.
    let w = wf("[workflow]\nseed = 1_000\nprocessors = 0x10\n[steps]\na = \"1\"\n").unwrap();
    assert_eq!((w.seed, w.processors), (Some(1000), Some(16)));
    let w = wf("[workflow]\nseed = -7\n[steps]\na = \"1\"\n").unwrap();
    assert_eq!(w.seed, Some(-7));
    assert_eq!(
        with("scheduler = \"mpc\""),
        "w.toml:2:13: unknown scheduler `mpc`; did you mean `mcp`?"
    );
    assert_eq!(
        with("scheduler = \"fast\""),
        "w.toml:2:13: unknown scheduler `fast` (expected one of emcp, mcp, baseline, \
         dynamic, ideal)"
    );
    assert_eq!(
        error("workflow = 1\n[steps]\na = \"1\"\n"),
        "w.toml:1:12: `workflow` must be a table (`[workflow]`), not an integer"
    );
    assert_eq!(
        step_error("100"),
        "w.toml:2:5: a step must be an expression string or a loop \
         `{ for = \"i in 1:N\", do = \"...\" }`, not an integer (write it as a string: \
         `a = \"...\"`)"
    );
    assert_eq!(
        step_error("{ for = \"i in 1:3\", do = 1 }"),
        "w.toml:2:30: `do` must be a string, not an integer"
    );
}

#[test]
fn steps_table_must_exist_and_hold_steps() {
    assert_eq!(
        error("[steps]\n"),
        "w.toml:1:2: `[steps]` is empty: a workflow needs at least one step"
    );
    assert_eq!(
        error("[workflow]\nseed = 1\n"),
        "w.toml: missing `[steps]`: a workflow needs at least one step"
    );
}

#[test]
fn step_names_and_loop_variables_must_be_r_names() {
    assert_eq!(
        error("[steps]\n\"1a\" = \"1\"\n"),
        "w.toml:2:1: invalid step name: `1a` is not a syntactic R name (use letters, \
         digits, `.` and `_`, starting with a letter or a dot not followed by a digit)"
    );
    assert_eq!(
        error("[steps]\nTRUE = \"1\"\n"),
        "w.toml:2:1: invalid step name: `TRUE` is a reserved word in R"
    );
    assert!(error("[steps]\n_x = \"1\"\n").contains("`_x` is not a syntactic R name"));
    assert!(error("[steps]\n\".5x\" = \"1\"\n").contains("`.5x` is not a syntactic"));
    assert!(error("[steps]\nin = \"1\"\n").contains("`in` is a reserved word"));
    // R itself lets a script assign `T`: the refusal must not blame R.
    assert_eq!(
        error("[steps]\nT = \"3\"\n"),
        "w.toml:2:1: invalid step name: `T` always means `TRUE` in flowcast (in R it is \
         a variable that a script may change): choose another name"
    );
    assert!(step_error("{ for = \"F in 1:3\", do = \"1\" }")
        .contains("`F` always means `FALSE` in flowcast"));
    assert_eq!(
        step_error("{ for = \"if in 1:3\", do = \"1\" }"),
        "w.toml:2:14: invalid loop variable: `if` is a reserved word in R"
    );
    assert_eq!(
        error("[steps]\na = \"1\"\nb = { for = \"a in 1:3\", do = \"a\" }\n"),
        "w.toml:3:14: loop variable `a` redefines the step `a`"
    );
    assert_eq!(
        step_error("{ for = \"i 1:3\", do = \"i\" }"),
        "w.toml:2:16: expected `in` after the loop variable `i`, found number"
    );
    assert_eq!(
        step_error("{ for = \"1 in 1:3\", do = \"1\" }"),
        "w.toml:2:14: expected a loop variable name, found number"
    );
    assert_eq!(
        step_error("{ for = \"i in\", do = \"i\" }"),
        "w.toml:2:18: expected the loop range after `in`, found end of expression"
    );
    assert_eq!(
        step_error("{ for = \"\", do = \"i\" }"),
        "w.toml:2:13: empty loop header (expected `VAR in RANGE`, as in `i in 1:N`)"
    );
    assert_eq!(
        step_error("{ do = \"i\" }"),
        "w.toml:2:5: loop step `a` is missing `for` (as in `for = \"i in 1:N\"`)"
    );
}

#[test]
fn dotted_keys_hint_at_quoting() {
    assert_eq!(
        error("[steps]\np.value = \"1\"\n"),
        "w.toml:2:1: TOML reads the dotted key `p.value` as a table `p`; quote a step \
         name that contains dots: `\"p.value\" = ...`"
    );
    let d = errors("[steps]\nx.y.z = \"1\"\n");
    assert!(
        d[0].message.contains("`\"x.y.z\" = ...`"),
        "{}",
        d[0].message
    );
    assert_eq!(d[0].span.map(|s| s.end - s.start), Some(5));
    // Dotted `for` and `do` keys are a loop, as TOML means them.
    let w = wf("[steps]\nb.for = \"i in 1:2\"\nb.do = \"i\"\n").unwrap();
    assert!(matches!(w.steps[0].body, StepBody::Loop(_)));
}

#[test]
fn toml_errors_are_diagnostics() {
    let d = errors("[steps]\na = \"x\nb = \"y\"\n");
    assert!(d[0].message.starts_with("invalid TOML"), "{}", d[0].message);
    assert!(
        d[0].location().starts_with("w.toml:2:"),
        "{}",
        d[0].location()
    );
    assert_eq!(
        error("[steps]\na = \"x\"\na = \"y\"\n"),
        "w.toml:3:1: duplicate key `a`: each step and setting can be defined only once \
         (`a` is first defined on line 2)"
    );
    // Quoted, and after other steps: the line of the first one.
    assert_eq!(
        error(
            "[steps]
\"b.x\" = \"1\"
c = \"2\"
\"b.x\" = \"3\"
"
        ),
        "w.toml:4:1: duplicate key `\"b.x\"`: each step and setting can be defined only \
         once (`\"b.x\"` is first defined on line 2)"
    );
}

#[test]
fn load_reads_files_and_reports_unreadable_ones() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("analysis.toml");
    std::fs::write(&path, "[steps]\nx = \"rnorm(10)\"\n").unwrap();
    let w = load(&path).unwrap();
    assert_eq!(w.name, "analysis");
    assert_eq!(w.base_dir(), dir.path());
    let d = load(&dir.path().join("missing.toml")).unwrap_err();
    assert_eq!(d.len(), 1);
    assert!(d[0].span.is_none());
    assert!(
        d[0].message.starts_with("cannot read workflow file"),
        "{}",
        d[0].message
    );
}
