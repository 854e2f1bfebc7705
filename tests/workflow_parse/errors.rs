//! Spans through TOML escapes and multi-line strings; every error kind with
//! its exact `path:line:col`.

use super::*;

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
            "\"a %y% b\"",
            "2:8: unknown operator `%y%`: the `%...%` operators supported are `%*%`, `%in%`, \
             `%o%`, `%x%`, `%%` and `%/%`",
        ),
        (
            "\"a == b == c\"",
            "2:13: unexpected `==`: comparisons do not chain in R; write `a < b & b < c`",
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
        (
            "\"x[[1, 2, 3]]\"",
            "2:13: `[[` takes one index, or a row and a column",
        ),
        (
            "\"x[[1] ]\"",
            "2:12: expected `]]` to close the `[[` at 2:7, found `]`",
        ),
        (
            "\"t$1\"",
            "2:8: unexpected number after `$`; expected a field name",
        ),
        (
            "\"b = 1\"",
            "2:6: a step is assigned by its TOML key (`name = \"value\"`); an assignment \
             inside a step makes a local for the statements after it",
        ),
    ] {
        assert_eq!(step_error(value), format!("w.toml:{want}"), "{value}");
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
fn diagnostics_render_the_line_and_caret() {
    let d = errors("[steps]\nfit = \"lm(y ~ x +)\"\n");
    let text = d[0].to_string();
    assert!(text.contains("--> w.toml:2:18 (step `fit`)"), "{text}");
    assert!(text.contains("2 | fit = \"lm(y ~ x +)\""), "{text}");
    assert!(text.contains("  |                  ^\n"), "{text}");
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
