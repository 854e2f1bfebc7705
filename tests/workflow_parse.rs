//! The workflow front end: TOML structure, R expression grammar, and errors
//! placed at the exact character of the file.

use std::path::Path;

use flowcast::diagnostic::{Diagnostic, SourceFile};
use flowcast::workflow::{load, parse, parse_expr_str, sexpr, Expr, ExprKind, StepBody, Workflow};

fn wf(text: &str) -> Result<Workflow, Vec<Diagnostic>> {
    parse(SourceFile::new("w.toml", text))
}

fn errors(text: &str) -> Vec<Diagnostic> {
    match wf(text) {
        Ok(_) => panic!("expected errors for:\n{text}"),
        Err(d) => d,
    }
}

/// The single error of `text`, as `location: message`.
fn error(text: &str) -> String {
    let d = errors(text);
    assert_eq!(d.len(), 1, "{d:#?}");
    format!("{}: {}", d[0].location(), d[0].message)
}

/// The error of a one-step workflow `[steps]\na = <value>`.
fn step_error(value: &str) -> String {
    let text = format!("[steps]\na = {value}\n");
    let d = errors(&text);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].step.as_deref(), Some("a"), "{:?}", d[0]);
    format!("{}: {}", d[0].location(), d[0].message)
}

fn grouped(text: &str) -> String {
    sexpr(&parse_expr_str(text).unwrap_or_else(|d| panic!("{text}: {d}")))
}

fn expr_of(w: &Workflow, step: &str) -> Expr {
    match &w.step(step).unwrap().body {
        StepBody::Expr(e) => e.clone(),
        StepBody::Loop(_) => panic!("{step} is a loop"),
    }
}

/// The file text a span covers.
fn text_at(w: &Workflow, span: flowcast::diagnostic::Span) -> &str {
    &w.file.text[span.start..span.end]
}

#[test]
fn precedence_follows_r() {
    for (text, want) in [
        ("-2^2", "(-(2^2))"),
        ("2^3^2", "(2^(3^2))"),
        ("2^-1*3", "((2^(-1)) * 3)"),
        ("1:n-1", "((1:n) - 1)"),
        ("-1:3", "((-1):3)"),
        ("a %*% b[i, ] * 2", "((a %*% b[i, ]) * 2)"),
        ("-a %*% b", "((-a) %*% b)"),
        ("a %*% b:c", "(a %*% (b:c))"),
        ("a - b - c", "((a - b) - c)"),
        ("a + b * c / d", "(a + ((b * c) / d))"),
        ("y ~ x1 + x2", "(y ~ (x1 + x2))"),
        ("~ x + z", "(~(x + z))"),
        ("(a + b) * c", "((a + b) * c)"),
        ("2 ** 3", "(2^3)"),
        ("t$p.value", "t$p.value"),
        ("friedman.test(a)$p.value", "friedman.test(a)$p.value"),
        ("x[[2]]", "x[[2]]"),
        ("x[[y[1]]]", "x[[y[1]]]"),
        ("x[i, ]", "x[i, ]"),
        ("x[, j]", "x[, j]"),
        ("x[i, j]", "x[i, j]"),
        ("x[]", "x[]"),
        ("-x[1]^2", "(-(x[1]^2))"),
        ("mean(c %*% a[i, ])", "mean((c %*% a[i, ]))"),
        (
            "hclust(dist(x), method = \"ward.D2\")",
            "hclust(dist(x), method = \"ward.D2\")",
        ),
        ("f('a' = 1, `my arg` = 2)", "f(a = 1, `my arg` = 2)"),
        ("lm(y ~ x, data = d)", "lm((y ~ x), data = d)"),
        ("f(\n  a,\n  b\n)", "f(a, b)"),
        ("a +\n b", "(a + b)"),
        ("a # the rest is a comment )", "a"),
    ] {
        assert_eq!(grouped(text), want, "{text}");
        // Printing and parsing again keeps the grouping.
        let printed = parse_expr_str(text).unwrap().to_string();
        assert_eq!(grouped(&printed), want, "{text} printed as {printed}");
    }
}

/// Random token soup, TOML around it included, never panics the parser, and
/// every error it reports points inside the file.
#[test]
fn random_input_never_panics() {
    const PIECES: &[&str] = &[
        "x", "f", "(", ")", "[", "]", "[[", "]]", ",", "=", "+", "-", "*", "/", "^", ":", "~", "$",
        "%*%", "%in%", "1", ".5", "1e", "0x", "'s'", "\"", "'", "\\", "\n", " ", "#", "`", "é",
        "<-", "{", "in", "if", "NULL", "2L", "\\u00e9", "\t",
    ];
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut parsed = 0;
    for _ in 0..10_000 {
        let len = 1 + next(8);
        let text: String = (0..len).map(|_| PIECES[next(PIECES.len())]).collect();
        if let Ok(e) = parse_expr_str(&text) {
            parsed += 1;
            let printed = e.to_string();
            let again = parse_expr_str(&printed).unwrap_or_else(|d| panic!("{text:?}: {d}"));
            assert_eq!(sexpr(&again), sexpr(&e), "{text:?} printed as {printed:?}");
        }
        for doc in [
            format!("[steps]\na = \"{text}\"\n"),
            format!("[steps]\na = '{text}'\n"),
            format!("[steps]\na = \"\"\"\n{text}\"\"\"\n"),
            format!("[steps]\nb = {{ for = \"{text}\", do = '{text}' }}\n"),
        ] {
            if let Err(ds) = wf(&doc) {
                for d in ds {
                    let span = d.span.unwrap();
                    assert!(span.start <= span.end && span.end <= doc.len(), "{doc}");
                    let _ = d.to_string();
                }
            }
        }
    }
    // Enough of the soup is valid for the round trip to be exercised.
    assert!(parsed > 300, "{parsed}");
}

/// R's own parser groups every text of `fixtures/r/parse.R` the same way.
#[test]
fn grouping_matches_r() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/r/parse.json");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = json["cases"].as_array().unwrap();
    assert!(cases.len() > 50);
    for case in cases {
        let text = case["text"].as_str().unwrap();
        let want = case["grouped"].as_str().unwrap();
        assert_eq!(grouped(text), want, "{text}");
    }
}

#[test]
fn display_round_trips_with_minimal_parentheses() {
    for text in [
        "-2^2",
        "(-2)^2",
        "1:(n - 1)",
        "(a + b) * c",
        "a - (b - c)",
        "2^3^2",
        "(2^3)^2",
        "y ~ x1 + x2",
        "x[i, ]$p.value",
        "f(x, n = 3)[[1]]",
    ] {
        let e = parse_expr_str(text).unwrap();
        assert_eq!(e.to_string(), text);
    }
}

#[test]
fn literals() {
    let kind = |t: &str| parse_expr_str(t).unwrap().kind;
    assert_eq!(kind("12"), ExprKind::Num(12.0));
    assert_eq!(kind("1.5"), ExprKind::Num(1.5));
    assert_eq!(kind(".5"), ExprKind::Num(0.5));
    assert_eq!(kind("1e-3"), ExprKind::Num(1e-3));
    assert_eq!(kind("2L"), ExprKind::Num(2.0));
    assert_eq!(kind("0x1F"), ExprKind::Num(31.0));
    assert_eq!(kind("Inf"), ExprKind::Num(f64::INFINITY));
    assert!(matches!(kind("NaN"), ExprKind::Num(v) if v.is_nan()));
    assert_eq!(kind("TRUE"), ExprKind::Bool(true));
    assert_eq!(kind("T"), ExprKind::Bool(true));
    assert_eq!(kind("FALSE"), ExprKind::Bool(false));
    assert_eq!(kind("F"), ExprKind::Bool(false));
    assert_eq!(kind("NULL"), ExprKind::Null);
    assert_eq!(kind("NA"), ExprKind::Na);
    assert_eq!(kind("'it\\'s'"), ExprKind::Str("it's".into()));
    assert_eq!(kind("\"a\\tb\""), ExprKind::Str("a\tb".into()));
    assert_eq!(kind("p.value"), ExprKind::Name("p.value".into()));
    assert_eq!(kind(".x"), ExprKind::Name(".x".into()));
    assert_eq!(kind("`my var`"), ExprKind::Name("my var".into()));
}

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
fn spans_map_through_escapes() {
    let w = wf("[steps]\na = \"f(\\\"s\\\", x\\u00e9)\"\n").unwrap();
    let ExprKind::Call {
        args, func_span, ..
    } = expr_of(&w, "a").kind
    else {
        panic!("a call")
    };
    assert_eq!(text_at(&w, func_span), "f");
    assert_eq!(text_at(&w, args[0].span), "\\\"s\\\"");
    assert_eq!(args[1].value.kind, ExprKind::Name("xé".into()));
    assert_eq!(text_at(&w, args[1].span), "x\\u00e9");

    // The decoded `\` of `\\q` is where the bad R escape starts.
    assert_eq!(
        step_error(r#""f(\"s\", \"\\q\")""#),
        "w.toml:2:17: '\\q' is an unrecognized escape in a string"
    );
    assert_eq!(
        step_error(r#""\u00e9 + )""#),
        "w.toml:2:15: unexpected `)`: there is no `(` to close"
    );
    // Columns count characters, not bytes.
    assert_eq!(
        step_error("\"é + )\""),
        "w.toml:2:10: unexpected `)`: there is no `(` to close"
    );
    assert_eq!(
        step_error(r#"'f(x, "\q")'"#),
        "w.toml:2:12: '\\q' is an unrecognized escape in a string"
    );
}

#[test]
fn spans_map_through_multi_line_strings() {
    let text = "[steps]\na = \"\"\"\nmean(\n  x +\n  )\"\"\"\n";
    assert_eq!(
        error(text),
        "w.toml:5:3: unexpected `)` after `+`; expected an operand"
    );
    let w = wf("[steps]\na = \"\"\"\nmean( \\\n    x)\"\"\"\nb = '''\n  sum(a)\n'''\n").unwrap();
    let ExprKind::Call { args, .. } = expr_of(&w, "a").kind else {
        panic!("a call")
    };
    let x = args[0].span;
    assert_eq!(text_at(&w, x), "x");
    assert_eq!(w.file.line_col(x.start), (4, 5));
    let b = expr_of(&w, "b");
    assert_eq!(text_at(&w, b.span), "sum(a)");
    assert_eq!(w.file.line_col(b.span.start), (6, 3));
}

#[test]
fn expression_errors_point_at_the_character() {
    for (value, want) in [
        (
            "\"x + * y\"",
            "2:10: unexpected `*` after `+`; expected an operand",
        ),
        ("\"f('abc)\"", "2:8: unterminated string"),
        (
            "\"f(g(x)\"",
            "2:7: unclosed `(`: the expression ends before its `)`",
        ),
        (
            "\"x[1, 2\"",
            "2:7: unclosed `[`: the expression ends before its `]`",
        ),
        (
            "\"f(x]\"",
            "2:7: unclosed `(`: found `]` at 2:9 before its `)`",
        ),
        ("\"\"", "2:5: empty expression"),
        ("\"  # only a comment\"", "2:6: empty expression"),
        (
            "\"x y\"",
            "2:8: unexpected name `y` after a complete expression; expected an operator \
             or the end of the expression",
        ),
        ("\"1.2.3 + x\"", "2:6: invalid number `1.2.3`"),
        ("\"2x\"", "2:6: invalid number `2x`"),
        ("\"1e\"", "2:6: invalid number `1e`"),
        (
            "\"a %in% b\"",
            "2:8: unknown operator `%in%`: the only `%...%` operator supported is `%*%`",
        ),
        (
            "\"a == b\"",
            "2:8: operator `==` is not supported in workflow expressions",
        ),
        (
            "\"x +\"",
            "2:9: unexpected end of expression after `+`; expected an operand",
        ),
        ("\"f(x,, y)\"", "2:10: empty argument 2 in the call at 2:7"),
        (
            "\"f(x y)\"",
            "2:10: unexpected name `y`; expected `,` or the `)` closing the `(` at 2:7",
        ),
        ("\"x[[1, 2]]\"", "2:10: `[[` takes exactly one index"),
        (
            "\"x[[1] ]\"",
            "2:12: expected `]]` to close the `[[` at 2:7, found `]`",
        ),
        (
            "\"t$1\"",
            "2:8: unexpected number after `$`; expected a field name",
        ),
        (
            "\"(a + b)(1)\"",
            "2:6: only a function named directly can be called, as in `f(x)`",
        ),
        (
            "\"if (x) y\"",
            "2:6: unexpected keyword `if`: workflow expressions have no control flow \
             (use a loop step `{ for = \"i in 1:N\", do = \"...\" }`)",
        ),
        (
            "\"b = 1\"",
            "2:8: unexpected `=`: a step is assigned by its TOML key, not inside the expression",
        ),
        (
            "\"\"\"\nx\n+ y\"\"\"",
            "4:1: unexpected `+` on a new line: outside brackets a line break ends an R \
             expression, and a step holds only one",
        ),
    ] {
        assert_eq!(step_error(value), format!("w.toml:{want}"), "{value}");
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!("{}x{}", "(".repeat(100_000), ")".repeat(100_000));
    let d = parse_expr_str(&deep).unwrap_err();
    assert_eq!(d.message, "expression nested too deeply");
    let d = parse_expr_str(&format!("{}x", "-".repeat(100_000))).unwrap_err();
    assert_eq!(d.message, "expression nested too deeply");
    // Nesting well beyond real workflows still parses.
    for open in ["f(", "(", "x[", "-"] {
        let close = match open {
            "f(" | "(" => ")",
            "x[" => "]",
            _ => "",
        };
        let ok = format!("{}x{}", open.repeat(190), close.repeat(190));
        let e = parse_expr_str(&ok).unwrap_or_else(|d| panic!("{open}: {d}"));
        // Printing recurses as deeply as parsing did.
        assert!(sexpr(&e).contains('x') && e.to_string().contains('x'));
    }
}

#[test]
fn every_bad_step_is_reported() {
    let d = errors("[steps]\na = \"x +\"\nb = \"ok\"\nc = \"f(\"\nd = \"1 2\"\n");
    let steps: Vec<_> = d.iter().map(|d| d.step.clone().unwrap()).collect();
    assert_eq!(steps, ["a", "c", "d"]);
    let lines: Vec<_> = d.iter().map(|d| d.location()).collect();
    assert_eq!(lines, ["w.toml:2:9", "w.toml:4:7", "w.toml:5:8"]);
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
         `scheduler`, `out`)"
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
    let d = errors("[steps]\na = \"x\"\na = \"y\"\n");
    assert_eq!(d[0].location(), "w.toml:3:1", "{}", d[0]);
}

#[test]
fn diagnostics_render_the_line_and_caret() {
    let d = errors("[steps]\nfit = \"lm(y ~ x +)\"\n");
    let text = d[0].to_string();
    assert!(text.contains("--> w.toml:2:18 (step `fit`)"), "{text}");
    assert!(text.contains("2 | fit = \"lm(y ~ x +)\""), "{text}");
    assert!(text.contains("  |                  ^\n"), "{text}");
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

/// Each file under `fixtures/workflows/bad` lists the errors it must produce,
/// in order, as `# error: LINE:COL MESSAGE-START` comments.
#[test]
fn bad_workflow_files_report_their_listed_errors() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/workflows/bad");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 5);
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let want: Vec<(String, String)> = text
            .lines()
            .filter_map(|l| l.strip_prefix("# error: "))
            .map(|l| {
                let (at, msg) = l.split_once(' ').unwrap();
                (at.to_string(), msg.to_string())
            })
            .collect();
        let got = load(&path).unwrap_err();
        let shown: Vec<String> = got.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            got.len(),
            want.len(),
            "{}:\n{}",
            path.display(),
            shown.join("\n")
        );
        for (d, (at, msg)) in got.iter().zip(&want) {
            let loc = d.location();
            assert!(
                loc.ends_with(&format!(":{at}")) && d.message.starts_with(msg.as_str()),
                "{}: want {at} {msg}\ngot:\n{d}",
                path.display()
            );
        }
    }
}
