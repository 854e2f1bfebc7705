//! The list of built-in functions users read (`flowcast functions`, and
//! the page assets/functions.md made from it): every registered kernel with
//! its formals, straight from the registry, so it cannot fall behind.

use super::registry;

/// `name(formal, [optional], ...)`, operators in backticks as R writes them
/// when called as functions.
fn signature(name: &str) -> Option<String> {
    let k = registry().get(name)?;
    let formals: Vec<String> = k
        .params
        .iter()
        // A name starting with NUL is the evaluator's, never written.
        .filter(|p| !p.name.starts_with('\0'))
        .map(|p| {
            if p.required || p.name == "..." {
                p.name.to_string()
            } else {
                format!("[{}]", p.name)
            }
        })
        .collect();
    let syntactic = name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '.')
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '.' || c == '_');
    let shown = if syntactic {
        name.to_string()
    } else {
        format!("`{name}`")
    };
    Some(format!("{shown}({})", formals.join(", ")))
}

/// What a function's value leaves out of R's, for the page.
fn note(name: &str) -> Option<&'static str> {
    match name {
        "runmed" => Some(" (the numbers alone: R's attribute `k` is not kept)"),
        "smooth" => {
            Some(" (the numbers alone: R's class \"tukeysmooth\" and its attributes are not kept)")
        }
        "nls" => Some(
            " (Gauss-Newton, the default algorithm, and \"plinear\"; \"port\" and `trace = TRUE` are refused; without `start`, a selfStart model's getInitial)",
        ),
        "isoreg" => Some(
            " (R's value without its `call`; `fitted` and `residuals` of it are R's; an infinite `y`, on which R 4.2.2 loops for ever, is refused as later R refuses it)",
        ),
        "medpolish" => Some(" (`trace.iter` prints nothing)"),
        "psmirnov" | "qsmirnov" => Some(
            " (`simulate = TRUE`, which would draw from the random stream, is refused: rsmirnov draws the same statistics)",
        ),
        "structure" => Some(
            " (names, dim, dimnames and levels, R's `.Names`, `.Dim` and `.Dimnames` among them; other attributes are refused)",
        ),
        "asplit" => Some(
            " (of a matrix or data frame by one margin: a list named by that margin's dimnames; by both, R's list matrix, is refused)",
        ),
        "reshape" => Some(
            " (without the `reshapeLong` or `reshapeWide` attribute R leaves on its result: a reshape back is written with its direction and layout again)",
        ),
        "na.omit" | "na.exclude" => Some(
            " (a vector or matrix carries R's `na.action` attribute; a data frame, which holds no attributes in flowcast, does not)",
        ),
        "na.action" => Some(
            " (of an lm, glm or aov fit, or of a vector na.omit or na.exclude made; a data frame's is refused, as flowcast's data frames hold no attributes)",
        ),
        "chisq.test" | "fisher.test" => {
            Some(" (with `simulate.p.value = TRUE`, draws from the random stream)")
        }
        "manova" => Some(
            " (R's fit with class \"manova\"; `summary` of it is summary.manova's `stats`, `SS`, `Eigenvalues` and `row.names`)",
        ),
        "SSD" => Some(" (of an lm fit of a matrix response: R's `SSD` and `df`, without its `call`)"),
        "ccf" => Some(
            " (R's \"acf\" value, as with `plot = FALSE`: nothing is drawn; `na.action` may only be R's default, na.fail)",
        ),
        "influence.measures" => Some(
            " (of lm and glm fits: R's \"infl\" value, `infmat` and `is.inf`, without the `call` flowcast's fits do not keep)",
        ),
        "as.formula" | "formula" => Some(
            " (of text, a formula, or an lm, glm or aov fit; the formula is evaluated where a model function or test reads it, among its `data` and then the steps; no `env`; R's deprecated readings of `y = x`, `(f)` and `{f}` are refused)",
        ),
        "reformulate" => Some(
            " (a `response` given as text; the formula is evaluated where a model function or test reads it, among its `data` and then the steps; no `env`)",
        ),
        "ARMAacf" => Some(
            " (a whole `lag.max`; `pacf = TRUE` with `lag.max` below 1, on which R 4.2.2 crashes, is refused)",
        ),
        "contr.treatment" | "contr.SAS" | "contr.sum" | "contr.helmert" | "contr.poly" => Some(
            " (a whole number of levels, or the levels; `sparse = TRUE`, a Matrix package value, is refused)",
        ),
        "factanal" => Some(
            " (R's list without `call`; `x` a numeric matrix or data frame, or `covmat` a matrix or a list of `cov` and `n.obs`; rotation \"varimax\", \"promax\" or \"none\"; the loadings are a matrix without R's class \"loadings\"; a formula `x`, `subset`, `na.action`, other rotations, `nstart` above 1, `trace = TRUE` and the `opt` and `rotate` controls are refused)",
        ),
        "varimax" | "promax" => Some(
            " (the loadings are a matrix without R's class \"loadings\")",
        ),
        "lsfit" => Some(" (one response: a matrix `y` and `yname` are refused)"),
        "as.Date" => Some(
            " (text read with %Y %m %d %e %y %b %B %h %j %a %A and literal text; a format R would complete from today's date is refused)",
        ),
        "as.POSIXct" | "ISOdatetime" | "strftime" => Some(
            " (in UTC or GMT only: a date-time R would read in the session's time zone, with no `tz` or `tz = \"\"`, is refused asking for `tz = \"UTC\"`)",
        ),
        "strptime" => Some(
            " (returns the POSIXct `as.POSIXct(strptime(x, format, tz))`, not R's POSIXlt; `tz` \"UTC\" or \"GMT\", and `tz = \"\"` (R's session zone, its default) is read as UTC; reads %Y %y %m %d %e %j %b %B %h %a %A %H %k %I %l %p %M %S %OS %T %R %r %F %D %z (an offset beyond 14 hours is NA without R's warning); a format R would complete from today's date is refused)",
        ),
        "lm.wfit" => Some(" (as lm.fit, with R's `weights`; rows of zero weight are set aside as R sets them aside)"),
        "hasTsp" => Some(" (of a vector or matrix: its `tsp` attribute, as a series of class \"ts\" in flowcast)"),
        "terms" => Some(" (of a formula or an lm, glm or aov fit: the formula with R's attributes `factors`, `term.labels`, `order`, `intercept`, `response`, `offset` and class; `variables`, `predvars`, `dataClasses` and `.Environment` are not kept, and a fit's formula is written with its expanded terms)"),
        "delete.response" => Some(" (of a terms object: the terms without the response, which `model.frame` and `model.matrix` read among their data)"),
        "labels" => Some(" (of a terms object, an lm or glm fit, or a vector: R's labels.terms, labels.lm and labels.default for vectors)"),
        "spec.taper" => Some(" (of a numeric vector or matrix, one `p` or one per column; attributes kept)"),
        "mauchly.test" => Some(
            " (of an lm fit of a matrix response or its `SSD`: the sphericity of the whole SSD matrix, R's `statistic`, `p.value` and `method` without the `data.name` that deparses the fit's call; `Sigma`, `T`, `M`, `X` and `idata` are refused)",
        ),
        "pairwise.prop.test" => Some(" (R's `pairwise.htest`; `...` is passed to each `prop.test`)"),
        "noquote" => Some(" (of a vector without a class: a classed object is refused)"),
        "as.difftime" => Some(" (of numbers with their `units`: text to read is refused)"),
        "rapply" => Some(
            " (`classes` naming \"numeric\", \"integer\" or \"double\" tells R's integers in a list written in the call, `rapply(list(1L, 2.5), f, classes = \"integer\")`, and is refused for a list from elsewhere or with names on its numbers: flowcast does not know which numbers there are R integers)",
        ),
        "aggregate" => Some(
            " (FUN's values of unequal lengths, which R keeps as a list column, are refused; a time series is aggregate.ts's, `nfrequency` or `ndeltat` named)",
        ),
        "ar" => Some(
            " (one series, method \"yule-walker\", \"burg\" or \"ols\" (whose `ar` is a vector, not R's order x 1 x 1 array); \"mle\", which R fits by arima0, and multivariate series are refused; the fit keeps its series as `series.x`, which `predict(fit, n.ahead)` reads where R evaluates `series` again)",
        ),
        "spec.ar" => Some(
            " (of one series or an ar fit of one; draws nothing: R's value with `plot = FALSE`)",
        ),
        "ar.yw" | "ar.burg" => Some(" (one series: the default method, as `ar`'s)"),
        "ar.ols" => Some(
            " (one series; its `ar` and `asy.se.coef$ar` are vectors, not R's order x 1 x 1 arrays; a matrix of series is refused)",
        ),
        "ar.mle" => Some(" (refused: R fits each order by arima0, which flowcast does not port)"),
        "ts.union" | "ts.intersect" => Some(" (`dframe = FALSE` only)"),
        "glm.fit" => Some(
            " (R's list without `R`, whose triangle is in `qr`; a vector `y` and finite data; `start`, `etastart`, `mustart`, `offset` and `control` are refused, and so are negative weights, which R's glm.fit takes)",
        ),
        "step" => Some(
            " (of lm and glm fits; `scope` a formula or `list(lower = , upper = )` of formulas, read among the fit's data; `keep` is refused; `trace` prints nothing; the path table is the fit's `anova`)",
        ),
        "add1" => Some(
            " (of lm and glm fits, `scope` a formula or term labels: R's table with its columns and row names, without the heading R prints; `x` is not read)",
        ),
        "model.frame" => Some(
            " (without R's `terms` and `na.action` attributes, which flowcast's data frames do not hold; matrix variables such as `poly(x, 2)` are refused; of an lm, aov or glm fit made with `data =`: rebuilt from that data at the rows the fit kept, a fit with an offset refused)",
        ),
        "model.response" | "model.extract" | "model.offset" => Some(
            " (of a data frame model.frame made: with no `terms` attribute to read, the response is its first column and the offsets its columns `(offset)` and `offset(…)`; `model.extract`'s component is given as a string)",
        ),
        "dummy.coef" => Some(
            " (of lm, glm and aov fits whose terms are numeric variables and factor main effects under treatment contrasts: R's \"dummy_coef\" list; interactions are refused)",
        ),
        "family" => Some(
            " (of a glm or lm fit: R's family object reduced to its `family` and `link` names; its functions are not kept)",
        ),
        "make.link" => Some(
            " (R's \"link-glm\" object reduced to its `name`; its functions are not kept)",
        ),
        "update" => Some(
            " (of a formula: R's update.formula, simplified as R returns it; of an lm or glm fit made with `data =`: refitted on every row of that data with its weights and family; other arguments and `evaluate = FALSE` are refused)",
        ),
        "drop1" => Some(
            " (of lm and glm fits: R's table with its columns and row names, without the heading R prints)",
        ),
        "bs" | "ns" => Some(
            " (the basis matrix, as `unclass()` of R's: R's attributes `degree`, `knots`, `Boundary.knots` and `intercept` are not kept; in a model formula `predict` with `newdata` uses the fit's knots, as R's `makepredictcall` does)",
        ),
        "hist" => Some(
            " (R's \"histogram\" value, as with `plot = FALSE`: breaks, counts, density, mids, xname, equidist; nothing is drawn whatever `plot` says, and the drawing arguments are unused (with R's warning when `plot = FALSE`); `breaks` as a function and NA among `breaks` are refused)",
        ),
        "smoothEnds" => Some(" (a logical `y` gives numbers where R keeps logicals)"),
        "splineDesign" => Some(" (`sparse = TRUE`, a Matrix package value, is refused)"),
        "supsmu" => Some(
            " (`trace` prints nothing; the few inputs on which R's Fortran loops for ever or reads past its arrays are refused)",
        ),
        "nlm" => Some(
            " (gradients by finite differences always: values carry no \"gradient\" attribute; `print.level > 0` is refused)",
        ),
        "nlminb" => Some(
            " (the PORT routines without and with `gradient`, unbounded and bounded; a `hessian` function beside the gradient is refused, and `trace` prints nothing)",
        ),
        "arima" => Some(
            " (a seasonal period not given is `frequency(x)`, 1 for a plain vector as R's `as.ts` makes it; the value has no `call`, `series` or `model`, and its residuals are a plain vector)",
        ),
        "optim" => Some(
            " (methods \"Nelder-Mead\", \"BFGS\", \"CG\", \"L-BFGS-B\" with `lower`/`upper` and \"Brent\"; \"SANN\" is refused, and `trace` prints nothing)",
        ),
        "constrOptim" => Some(
            " (optim's methods but \"SANN\", which is refused; a `ci` whose length does not divide the rows of `ui`, which R recycles with a warning at every evaluation, is refused)",
        ),
        "append" => Some(" (of vectors and lists; a factor, which R joins with c.factor, is refused)"),
        "La.svd" => Some(" (of a numeric or logical matrix; complex matrices are refused)"),
        "local" => Some(" (a new environment each time; `envir` is refused)"),
        "missing" => Some(
            " (`missing(x)` inside a function: whether its call gave the parameter `x` an argument)",
        ),
        "loadings" => Some(" (the matrix without R's class \"loadings\", as `unclass` shows it)"),
        "cophenetic" => Some(" (of an hclust tree)"),
        "as.dist" => Some(" (of a square matrix: a non-square one, where R warns and makes a dist no function can use, is refused)"),
        "try" => Some(" (prints nothing whatever `silent`; the error text names the innermost call around the error, the `try` call for a `stop` written in `expr`, and a generic's default method for solve, chol, quantile, median, diff, scale, sort, seq, rev, unique and t, as R names them)"),
        "arima.sim" => Some(
            " (a series starting at 1; `rand.gen` a function of `n` and `...` or a function's name, rnorm when not given; `start.innov`'s default is drawn before `innov`'s, as in R, but an `innov` given as a random call is drawn before the call runs, whereas R draws it after the burn-in)",
        ),
        "ls.diag" => Some(" (of flowcast's one-response lsfit)"),
        "ecdf" | "approxfun" | "stepfun" | "splinefun" => Some(
            " (a function value: a step holding it, or a variable, is called as `Fn(q)`, also by sapply and its kin; it is R's closure environment as a classed list, not printed as R prints a function)",
        ),
        "knots" => Some(" (of an ecdf or stepfun)"),
        "loglin" => Some(
            " (a table of one or two dimensions, flowcast's vectors and matrices; `print` prints nothing)",
        ),
        "determinant" => Some(" (R's \"det\" list; its `modulus` does not carry R's attribute `logarithm`)"),
        "lag" => Some(" (of a time series; a plain vector, to which R gives a `tsp` without the class \"ts\", and an infinite `k` are refused)"),
        "reorder" => Some(" (FUN's scores numeric or logical, kept as a named vector where R keeps tapply's one-dimensional array; `order = TRUE`, an ordered factor, is refused)"),
        "diffinv" => Some(" (a numeric or logical vector, matrix or time series, one `lag` and one `differences`, at most 200 of them as R manages; text and lists, which R coerces, are refused)"),
        "toeplitz" => Some(" (a numeric, logical or complex vector; a character or list `x`, which R makes a matrix of, is refused)"),
        "smooth.spline" => Some(
            " (R's value without its `call`; `nknots` as a function and `control.spar = list(trace = TRUE)` are refused; `predict(fit, x, deriv)` predicts from it)",
        ),
        "ts" => Some(
            " (a numeric or logical vector or matrix; its `tsp` is kept by arithmetic, R's Math functions, `diff` and `filter`, read by `acf`, `pacf` and `ccf` (lags in time units), and dropped by indexing and other functions; `class` and `names` are not taken)",
        ),
        "decompose" => Some(
            " (a series of whole frequency; the value's `x`, `seasonal`, `trend` and `random` are series)",
        ),
        "StructTS" => Some(
            " (R's value without its `call` and `series`; the variances are found as in R, by optim's \"L-BFGS-B\" with `optim.control`; a `fixed` or `init` of another length than the variances', which R recycles with a warning, is refused; `predict(fit, n.ahead, se.fit)` and `tsSmooth(fit)` read it)",
        ),
        "KalmanLike" | "KalmanRun" | "KalmanForecast" => Some(
            " (on a model list with `Z`, `a`, `P`, `T`, `V`, `h` and `Pn` that fit together; `update = TRUE`, whose model R hangs on the value as an attribute, is refused)",
        ),
        "KalmanSmooth" => Some(
            " (on a model list with `Z`, `a`, `P`, `T`, `V`, `h` and `Pn` that fit together; `var` is an n x p x p array)",
        ),
        "tsSmooth" => Some(" (of a StructTS fit, R's only method)"),
        "HoltWinters" => Some(
            " (R's value without its `call`; free parameters are found as in R: one by `optimize`, two or three by optim's \"L-BFGS-B\" from `optim.start` with `optim.control`; `predict(fit, n.ahead)` predicts from it, without prediction intervals)",
        ),
        "window" => Some(
            " (a numeric or logical vector or matrix; `start` and `end` as a time or `c(year, period)`; `extend = TRUE` pads with NA)",
        ),
        "spec.pgram" | "spectrum" => Some(
            " (one series; R's value with `plot = FALSE`: freq, spec, df, bandwidth, n.used, orig.n, method, taper, pad, detrend, demean; `spans` smooths by modified Daniell kernels, a `kernel` value and `na.action` are refused; spectrum's method \"ar\" is refused)",
        ),
        "stl" => Some(
            " (R's value without its `call`; NA in `x` is refused, as R's default `na.action = na.fail` does)",
        ),
        "loess" => Some(
            " (one to four numeric predictors; R's value without its `call`, `terms` and `na.action` (rows with NA are dropped as na.omit does); surface, statistics, trace.hat, cell and iterations given directly or as `control = loess.control(...)`, `iterTrace` refused; `predict(fit, newdata, se)` predicts from it)",
        ),
        _ => None,
    }
}

/// The functions whose names contain `pattern` (all when `None`), as a
/// Markdown page: one line per function, sorted by name.
pub fn markdown(pattern: Option<&str>) -> String {
    let mut out = String::new();
    if pattern.is_none() {
        out.push_str(
            "# Built-in functions\n\n\
             Every function a workflow step can call, with its formal arguments as R \
             names them (`[name]`: optional, with R's default). Generated by \
             `flowcast functions`; a test keeps this page equal to its output.\n\n",
        );
    }
    for name in registry().names() {
        if pattern.is_some_and(|p| !name.contains(p)) {
            continue;
        }
        // A call of a value is written as one (`Fn(q)`): no user names
        // the kernel that runs it.
        // Nor a formula's parentheses, which the parser makes a call of
        // `(` (see `workflow::PAREN`), nor a function's call of itself
        // (`workflow::RECALL`).
        if [
            super::callable::CALL_VALUE,
            crate::workflow::PAREN,
            crate::workflow::RECALL,
        ]
        .contains(&name)
        {
            continue;
        }
        let Some(sig) = signature(name) else { continue };
        let random = registry().get(name).is_some_and(|k| k.random);
        // A code span holding backticks is fenced by two.
        let code = if sig.contains('`') {
            format!("`` {sig} ``")
        } else {
            format!("`{sig}`")
        };
        out.push_str(&format!(
            "- {code}{}{}\n",
            if random {
                " (draws from the random stream)"
            } else {
                ""
            },
            note(name).unwrap_or("")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_show_formals_and_optional_ones() {
        assert_eq!(
            signature("rep").as_deref(),
            Some("rep(x, [times], [length.out], [each])")
        );
        assert_eq!(signature(">=").as_deref(), Some("`>=`(e1, e2)"));
        assert_eq!(signature("sum").as_deref(), Some("sum(..., [na.rm])"));
        let page = markdown(Some("which"));
        assert_eq!(
            page,
            "- `which(x, [arr.ind], [useNames])`\n- `which.max(x)`\n- `which.min(x)`\n"
        );
    }
}
