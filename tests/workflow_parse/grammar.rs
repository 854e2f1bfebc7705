//! R's grammar and precedence, checked against R's own parser.

use super::*;

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
        "x",
        "f",
        "(",
        ")",
        "[",
        "]",
        "[[",
        "]]",
        ",",
        "=",
        "+",
        "-",
        "*",
        "/",
        "^",
        ":",
        "~",
        "$",
        "%*%",
        "%in%",
        "1",
        ".5",
        "1e",
        "0x",
        "'s'",
        "\"",
        "'",
        "\\",
        "\n",
        " ",
        "#",
        "`",
        "é",
        "<-",
        "{",
        "in",
        "if",
        "NULL",
        "2L",
        "\\u00e9",
        "\t",
        "!",
        "==",
        "<",
        ">=",
        "&",
        "&&",
        "|",
        "||",
        "!=",
        "}",
        ";",
        "else",
        "%%",
        "%/%",
        "<-",
        "function(i)",
        "if (",
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

/// Braces, `<-`, `if` and `%%` group as R's parser groups them.
#[test]
fn statements_group_as_in_r() {
    for (text, want) in [
        ("{ a <- 1; a + 1 }", "{ (a <- 1); (a + 1) }"),
        (
            "{\n  a <- 1\n  b = a * 2\n  b\n}",
            "{ (a <- 1); (b <- (a * 2)); b }",
        ),
        ("{}", "{}"),
        ("{ ; ; }", "{}"),
        ("a <- b <- 2; a", "{ (a <- (b <- 2)); a }"),
        ("x <- f(y)\nx + 1", "{ (x <- f(y)); (x + 1) }"),
        ("if (a) b else c + 1", "(if (a) b else (c + 1))"),
        ("if (a) b", "(if (a) b)"),
        ("if (a) if (b) c else d", "(if (a) (if (b) c else d))"),
        ("{ if (a) b\n else c }", "{ (if (a) b else c) }"),
        (
            "x <- if (a > 1) 'big' else 'small'; x",
            "{ (x <- (if ((a > 1)) \"big\" else \"small\")); x }",
        ),
        (
            "f(x, function(i) { s <- i^2; s })",
            "f(x, (function(i) { (s <- (i^2)); s }))",
        ),
        (
            "if (p) { y <- 1 } else { y <- 2 }; y",
            "{ (if (p) { (y <- 1) } else { (y <- 2) }); y }",
        ),
        ("a %% 2 == 0", "((a %% 2) == 0)"),
        (
            "function(x, n = length(x)) x[n]",
            "(function(x, n = length(x)) x[n])",
        ),
        ("-7 %/% 2 * 3", "(((-7) %/% 2) * 3)"),
        ("a + b %% c ^ 2", "(a + (b %% (c^2)))"),
        // R's sequential loops: the body takes everything to its right.
        (
            "for (i in 1:n) s <- s + i",
            "(for (i in (1:n)) (s <- (s + i)))",
        ),
        (
            "for (i in x) { if (i > 2) break; s <- i }",
            "(for (i in x) { (if ((i > 2)) break); (s <- i) })",
        ),
        (
            "while (k < 10) k <- k * 2",
            "(while ((k < 10)) (k <- (k * 2)))",
        ),
        (
            "repeat { k <- k + 1; if (k > 3) break }",
            "(repeat { (k <- (k + 1)); (if ((k > 3)) break) })",
        ),
        (
            "for (i in 1:3)\n  for (j in 1:i) next",
            "(for (i in (1:3)) (for (j in (1:i)) next))",
        ),
        (
            "if (a) for (i in x) b else c",
            "(if (a) (for (i in x) b) else c)",
        ),
    ] {
        assert_eq!(grouped(text), want, "{text}");
        let printed = parse_expr_str(text).unwrap().to_string();
        assert_eq!(grouped(&printed), want, "{text} printed as {printed}");
    }
}

#[test]
fn statement_errors_point_at_the_statement() {
    for (value, want) in [
        (
            "\"b <- 1\"",
            "2:6: a step is assigned by its TOML key (`name = \"value\"`); an assignment \
             inside a step makes a local for the statements after it",
        ),
        (
            "\"f(b <- 1)\"",
            "2:10: unexpected `<-`: a step is assigned by its TOML key; inside an expression, \
             assign a local as a statement in braces, `{ a <- f(x); g(a) }`",
        ),
        (
            "\"{ sort(x)[1] <- 2; x }\"",
            "2:8: cannot assign to this with `<-`: the target is a name, `x[i]`, `x[[i]]`, \
             `x$name`, or names(x), colnames(x), rownames(x), row.names(x), dimnames(x), \
             levels(x), dim(x) or is.na(x) of one of those",
        ),
        (
            "\"{ 1[1] <- 2 }\"",
            "2:8: cannot assign to this with `<-`: the target is a name, `x[i]`, `x[[i]]`, \
             `x$name`, or names(x), colnames(x), rownames(x), row.names(x), dimnames(x), \
             levels(x), dim(x) or is.na(x) of one of those",
        ),
        (
            "\"{ a <- }\"",
            "2:13: unexpected `}` after `<-`; expected an expression",
        ),
        (
            "\"{ a b }\"",
            "2:10: unexpected name `b` after a complete statement; expected `;`, a line \
             break or the `}` closing the `{` at 2:6",
        ),
        (
            "\"{ a \"",
            "2:6: unclosed `{`: the expression ends before its `}`",
        ),
        (
            "\"if x > 1 2\"",
            "2:9: expected `(` after `if`, found name `x`",
        ),
        ("\"else 2\"", "2:6: unexpected `else`: no `if` before it"),
        (
            "\"x |> mean\"",
            "2:11: The pipe operator requires a function call as RHS",
        ),
        (
            "\"x |> f(_)\"",
            "2:13: pipe placeholder can only be used as a named argument",
        ),
        (
            "\"for i in 1:3\"",
            "2:10: expected `(` after `for`, found name `i`",
        ),
        (
            "\"for (1 in 1:3) 2\"",
            "2:11: expected the loop variable's name after `for (`, found number",
        ),
        (
            "\"for (i of 1:3) 2\"",
            "2:13: expected `in` after `for (i`, found name `of`",
        ),
        (
            "\"while (TRUE)\"",
            "2:18: unexpected end of expression after `)`; expected an expression",
        ),
    ] {
        assert_eq!(step_error(value), format!("w.toml:{want}"), "{value}");
    }
}
